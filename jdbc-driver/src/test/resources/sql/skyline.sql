# SKYLINE OF (issue 5): hand-written cases over the store.
# Dominance: same DIFF partition (NULLs one partition), no worse on every
# MIN/MAX item, better on one. A NULL in a MIN/MAX item compares with
# nothing, so its row is always kept.

CREATE TABLE hotels (id INT PRIMARY KEY, name VARCHAR(10) NOT NULL, city VARCHAR(10),
  price DOUBLE, dist DOUBLE, stars INT);
!update
INSERT INTO hotels VALUES
  (1, 'alder', 'oslo', 100, 2.0, 3),
  (2, 'birch', 'oslo', 80, 3.0, 3),
  (3, 'cedar', 'oslo', 120, 1.0, 4),
  (4, 'dogwood', 'oslo', 130, 3.0, 2),
  (5, 'elm', 'rome', 50, 9.0, 1),
  (6, 'fir', 'rome', 50, 9.0, 1),
  (7, 'gum', 'rome', NULL, 1.0, 5),
  (8, 'hazel', 'rome', 60, 8.0, 1),
  (9, 'ivy', NULL, 90, 2.5, 3),
  (10, 'juniper', NULL, 95, 2.5, 2);
!update

# Cheap and near. dogwood loses to alder, juniper to ivy; elm and fir are
# duplicates on both items and both stay; gum's price is unknown.
SELECT name, price, dist FROM hotels SKYLINE OF price MIN, dist MIN;
name  | price | dist
alder | 100   | 2
birch | 80    | 3
cedar | 120   | 1
elm   | 50    | 9
fir   | 50    | 9
gum   | null  | 1
hazel | 60    | 8
ivy   | 90    | 2.5
!ok

# MAX: many stars, near. Items need not be selected. gum beats cedar on
# stars and ties it on distance.
SELECT name FROM hotels SKYLINE OF stars MAX, dist MIN;
name
gum
!ok

# One item: the rows holding the best value, and the NULL.
SELECT name FROM hotels SKYLINE OF price MIN;
name
elm
fir
gum
!ok

# DIFF: a skyline per city; the NULL city is one partition.
SELECT name, city FROM hotels SKYLINE OF price MIN, dist MIN, city DIFF;
name    | city
alder   | oslo
birch   | oslo
cedar   | oslo
elm     | rome
fir     | rome
gum     | rome
hazel   | rome
ivy     | null
!ok

# Only DIFF: nothing is compared, every row stays.
SELECT COUNT(*) AS n FROM (SELECT * FROM hotels SKYLINE OF city DIFF);
n
10
!ok

# DISTINCT: one row of each set equal on every item.
SELECT price, dist FROM hotels SKYLINE OF DISTINCT price MIN, dist MIN;
price | dist
100   | 2
80    | 3
120   | 1
50    | 9
null  | 1
60    | 8
90    | 2.5
!ok

# Aliases and ordinals name select items, as in ORDER BY.
SELECT name, price * 1.25 AS gross, 10 - stars AS worse FROM hotels SKYLINE OF gross MIN, 3 MIN;
name  | gross | worse
birch | 100   | 7
cedar | 150   | 6
elm   | 62.5  | 9
fir   | 62.5  | 9
gum   | null  | 5
!ok

# Expressions of columns not selected.
SELECT name FROM hotels SKYLINE OF price + 10 * dist MIN, stars * -1 MIN;
name
birch
cedar
gum
!ok

# After ORDER BY's and LIMIT's place: they apply to the skyline.
SELECT name FROM hotels SKYLINE OF price MIN, dist MIN ORDER BY dist DESC, name LIMIT 3;
name
elm
fir
hazel
!ok

# An aggregating block: items are grouped expressions or aggregates.
SELECT city, MIN(price) AS cheapest, COUNT(*) AS n FROM hotels GROUP BY city
HAVING COUNT(*) > 1 SKYLINE OF MIN(price) MIN, COUNT(*) MAX;
city | cheapest | n
rome | 50       | 4
!ok

# QUALIFY first, then the skyline.
SELECT name FROM hotels QUALIFY ROW_NUMBER() OVER (PARTITION BY city ORDER BY stars DESC, id) = 1
SKYLINE OF price MIN, dist MIN;
name
cedar
gum
ivy
!ok

# A skyline in a derived table, filtered and ordered outside.
SELECT name, stars FROM (SELECT * FROM hotels SKYLINE OF price MIN, dist MIN) AS s
WHERE stars >= 3 ORDER BY stars DESC, name;
name  | stars
gum   | 5
cedar | 4
alder | 3
birch | 3
ivy   | 3
!ok

# In IN and EXISTS sub-queries.
SELECT name FROM hotels WHERE id IN (SELECT id FROM hotels SKYLINE OF stars MAX, price MIN);
name
birch
cedar
elm
fir
gum
!ok
SELECT h.name FROM hotels h WHERE EXISTS (SELECT 1 FROM hotels k WHERE k.city = h.city
  SKYLINE OF k.price MAX) AND h.stars = 1;
name
elm
fir
hazel
!ok

# In a CTE, and a skyline of a skyline.
WITH near AS (SELECT * FROM hotels SKYLINE OF dist MIN, city DIFF)
SELECT name, city FROM near SKYLINE OF stars MAX;
name | city
gum  | rome
!ok

# Each side of UNION ALL.
SELECT name FROM hotels SKYLINE OF price MIN UNION ALL SELECT name FROM hotels SKYLINE OF price MAX;
name
elm
fir
gum
dogwood
gum
!ok

# A join; items from both sides.
CREATE TABLE reviews (hotel INT, score INT);
!update
INSERT INTO reviews VALUES (1, 9), (2, 6), (3, 7), (5, 8), (6, 5), (9, 9);
!update
SELECT h.name, r.score FROM hotels h JOIN reviews r ON r.hotel = h.id
SKYLINE OF h.price MIN, r.score MAX;
name  | score
elm   | 8
ivy   | 9
!ok

# INSERT ... SELECT writes the skyline.
CREATE TABLE shortlist (id INT PRIMARY KEY, name VARCHAR(10));
!update
INSERT INTO shortlist SELECT id, name FROM hotels WHERE city = 'oslo' SKYLINE OF price MIN, stars MAX;
!update
SELECT * FROM shortlist;
id | name
2  | birch
3  | cedar
!ok

# SKYLINE and DIFF stay names.
CREATE TABLE skyline (diff INT, skyline INT);
!update
INSERT INTO skyline VALUES (1, 2), (2, 1), (2, 2);
!update
SELECT diff, skyline FROM skyline skyline SKYLINE OF diff MIN, skyline MIN;
diff | skyline
1    | 2
2    | 1
!ok

# EXPLAIN shows the node and its algorithm, by the number of MIN/MAX items,
# and DIFF items' hash partitions.
EXPLAIN PLAN FOR SELECT name FROM hotels SKYLINE OF DISTINCT price MIN;
EnumerableCalc(expr#0..1=[{inputs}], name=[$t0])
  EnumerableSkyline(dimensions=[[$1 MIN]], distinct=[true], algorithm=[extremes])
    EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 3]])
!plan
EXPLAIN PLAN FOR SELECT name FROM hotels SKYLINE OF DISTINCT price MIN, dist MIN, city DIFF;
EnumerableCalc(expr#0..3=[{inputs}], name=[$t0])
  EnumerableSkyline(dimensions=[[$2 MIN, $3 MIN, $1 DIFF]], distinct=[true], algorithm=[sort-scan], partitions=[hash])
    EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 2, 3, 4]])
!plan
EXPLAIN PLAN FOR SELECT name FROM hotels SKYLINE OF price MIN, dist MIN, stars MAX;
EnumerableCalc(expr#0..3=[{inputs}], name=[$t0])
  EnumerableSkyline(dimensions=[[$1 MIN, $2 MIN, $3 MAX]], prefilter=[less], algorithm=[salsa])
    EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 3, 4, 5]])
!plan
# DIFF partitions by hashing, so it needs equality only: an ARRAY (no order) splits too.
EXPLAIN PLAN FOR SELECT name FROM hotels SKYLINE OF price MIN, dist MIN, stars MAX, ARRAY[city] DIFF;
EnumerableCalc(expr#0..4=[{inputs}], name=[$t0])
  EnumerableSkyline(dimensions=[[$1 MIN, $2 MIN, $3 MAX, $4 DIFF]], algorithm=[salsa], partitions=[hash])
    EnumerableCalc(expr#0..4=[{inputs}], expr#5=[ARRAY($t1)], name=[$t0], price=[$t2], dist=[$t3], stars=[$t4], EXPR$4=[$t5])
      EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 2, 3, 4, 5]])
!plan
SELECT name FROM hotels SKYLINE OF price MIN, dist MIN, stars MAX, ARRAY[city] DIFF;
name
alder
birch
cedar
elm
fir
gum
hazel
ivy
!ok

# The skyline rules (sql-dialect, SkylineRules), seen through EXPLAIN.
# One MIN/MAX item, no DISTINCT: a filter on a window MIN.
EXPLAIN PLAN FOR SELECT name FROM hotels SKYLINE OF price MIN;
EnumerableCalc(expr#0..2=[{inputs}], expr#3=[IS NULL($t1)], expr#4=[=($t1, $t2)], expr#5=[OR($t3, $t4)], name=[$t0], $condition=[$t5])
  EnumerableWindow(window#0=[window(aggs [MIN($1)])])
    EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 3]])
!plan
# name is NOT NULL, so MIN and MAX on it are DIFF; a constant item goes.
EXPLAIN PLAN FOR SELECT name, city FROM hotels SKYLINE OF name MIN, name MAX, price MIN, 1 + 1 MAX;
EnumerableCalc(expr#0..3=[{inputs}], expr#4=[IS NULL($t2)], expr#5=[=($t2, $t3)], expr#6=[OR($t4, $t5)], proj#0..1=[{exprs}], $condition=[$t6])
  EnumerableWindow(window#0=[window(partition {0} aggs [MIN($2)])])
    EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 2, 3]])
!plan
# Stacked skylines of the same items: one.
EXPLAIN PLAN FOR SELECT name FROM (SELECT * FROM hotels SKYLINE OF price MIN, dist MIN)
SKYLINE OF dist MIN, price MIN, city DIFF;
EnumerableCalc(expr#0..2=[{inputs}], name=[$t0])
  EnumerableSkyline(dimensions=[[$1 MIN, $2 MIN]], prefilter=[less], algorithm=[sort-scan])
    EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 3, 4]])
!plan
# Only DIFF: nothing to compare, no skyline.
EXPLAIN PLAN FOR SELECT city FROM hotels SKYLINE OF city DIFF;
EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[2]])
!plan
# Below a LEFT JOIN on the right side's primary key, which keeps every hotel once.
CREATE TABLE owners (hotel INT PRIMARY KEY, owner VARCHAR(10));
!update
INSERT INTO owners VALUES (1, 'ann'), (2, 'bo'), (5, 'cy');
!update
EXPLAIN PLAN FOR SELECT h.name, o.owner FROM hotels h LEFT JOIN owners o ON o.hotel = h.id
SKYLINE OF h.price MIN, h.dist MIN;
EnumerableCalc(expr#0..3=[{inputs}], name=[$t1], owner=[$t3])
  EnumerableHashJoin(condition=[=($0, $2)], joinType=[left])
    EnumerableCalc(expr#0..3=[{inputs}], proj#0..1=[{exprs}])
      EnumerableSkyline(dimensions=[[$2 MIN, $3 MIN]], prefilter=[less], algorithm=[sort-scan])
        EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[0, 1, 3, 4]])
    EnumerableStoreScan(table=[[PUBLIC, owners]])
!plan
SELECT h.name, o.owner FROM hotels h LEFT JOIN owners o ON o.hotel = h.id
SKYLINE OF h.price MIN, h.dist MIN;
name  | owner
alder | ann
birch | bo
cedar | null
elm   | cy
fir   | null
gum   | null
hazel | null
ivy   | null
!ok
# Not below a join whose other side has no key: a review could repeat a hotel.
EXPLAIN PLAN FOR SELECT h.name, r.score FROM hotels h LEFT JOIN reviews r ON r.hotel = h.id
SKYLINE OF h.price MIN, h.dist MIN;
EnumerableCalc(expr#0..5=[{inputs}], name=[$t1], score=[$t5])
  EnumerableSkyline(dimensions=[[$2 MIN, $3 MIN]], prefilter=[less], algorithm=[sort-scan])
    EnumerableHashJoin(condition=[=($0, $4)], joinType=[left])
      EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[0, 1, 3, 4]])
      EnumerableStoreScan(table=[[PUBLIC, reviews]])
!plan
# Below UNION ALL, a copy on each input as a pre-filter.
EXPLAIN PLAN FOR SELECT * FROM (SELECT name, price, dist FROM hotels WHERE city = 'oslo'
  UNION ALL SELECT name, price, dist FROM hotels WHERE stars > 3) SKYLINE OF price MIN, dist MIN;
EnumerableSkyline(dimensions=[[$1 MIN, $2 MIN]], prefilter=[less], algorithm=[sort-scan])
  EnumerableUnion(all=[true])
    EnumerableCalc(expr#0..3=[{inputs}], name=[$t0], price=[$t2], dist=[$t3])
      EnumerableSkyline(dimensions=[[$2 MIN, $3 MIN]], prefilter=[less], algorithm=[sort-scan])
        EnumerableCalc(expr#0..3=[{inputs}], expr#4=['oslo':VARCHAR], expr#5=[=($t1, $t4)], proj#0..3=[{exprs}], $condition=[$t5])
          EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 2, 3, 4]])
    EnumerableCalc(expr#0..3=[{inputs}], proj#0..2=[{exprs}])
      EnumerableSkyline(dimensions=[[$1 MIN, $2 MIN]], prefilter=[less], algorithm=[sort-scan])
        EnumerableCalc(expr#0..3=[{inputs}], expr#4=[3], expr#5=[>($t3, $t4)], proj#0..3=[{exprs}], $condition=[$t5])
          EnumerableStoreScan(table=[[PUBLIC, hotels]], columns=[[1, 3, 4, 5]])
!plan
SELECT * FROM (SELECT name, price, dist FROM hotels WHERE city = 'oslo'
  UNION ALL SELECT name, price, dist FROM hotels WHERE stars > 3) SKYLINE OF price MIN, dist MIN;
name  | price | dist
alder | 100   | 2
birch | 80    | 3
cedar | 120   | 1
cedar | 120   | 1
gum   | null  | 1
!ok

# Errors name the line and column of the item.
SELECT name FROM hotels SKYLINE OF COUNT(*) MIN;
From line 1, column 36 to line 1, column 43: Aggregate expression is illegal in SKYLINE OF of a non-aggregating SELECT
!error
SELECT city FROM hotels GROUP BY city
SKYLINE OF price MIN;
From line 2, column 12 to line 2, column 16: Expression 'price' is not being grouped
!error
SELECT DISTINCT city FROM hotels SKYLINE OF price MIN;
From line 1, column 45 to line 1, column 49: Expression 'price' is not in the select clause
!error
SELECT name FROM hotels SKYLINE OF ARRAY[price] MAX;
From line 1, column 36 to line 1, column 47: SKYLINE OF ... MAX needs a type whose values are ordered; DOUBLE ARRAY NOT NULL has no order
!error
SELECT name FROM hotels SKYLINE OF nowhere MIN;
From line 1, column 36 to line 1, column 42: Column 'nowhere' not found in any table
!error
SELECT name FROM hotels SKYLINE OF price;
Encountered "<EOF>" at line 1, column 40
!error
SELECT name FROM hotels SKYLINE OF price ASC;
Encountered "ASC" at line 1, column 42
!error
