# PARETO_MIN / PARETO_MAX (issue 5): a group's frontier as an array of
# points in ascending order; the per-entity frontier of the skyline
# aggregates spec (shared/spec/skyline-aggregates.md) written in SQL.

CREATE TABLE memory (id VARCHAR(4) PRIMARY KEY, text VARCHAR(60), importance DOUBLE NOT NULL,
  at DOUBLE NOT NULL);
!update
CREATE TABLE entity (id VARCHAR(20) PRIMARY KEY, name VARCHAR(20) NOT NULL);
!update
CREATE TABLE mentions (memory VARCHAR(4) NOT NULL, entity VARCHAR(20) NOT NULL);
!update
# at is a unix timestamp; day = (at - 1751328000) / 86400.
INSERT INTO memory VALUES
  ('m1', 'Maya prefers short summaries', 0.6, 1751328000),
  ('m2', 'Chose RocksDB over sled for the write path', 0.9, 1751414400),
  ('m3', 'search-service reads from Postgres replicas', 0.7, 1751500800),
  ('m4', 'Compaction stalls correlate with oversized SST files', 0.8, 1751587200),
  ('m5', 'Cap SST file size at 128 MB', 0.85, 1751673600),
  ('m6', 'Sam owns the on-call rota', 0.5, 1751760000),
  ('m7', 'Sam asked about the rota again', 0.45, 1751587200),
  ('m8', 'Postgres 16 upgrade planned', 0.75, 1751932800);
!update
INSERT INTO entity VALUES ('e_maya', 'Maya'), ('e_rocksdb', 'RocksDB'),
  ('e_postgres', 'Postgres'), ('e_search', 'search-service'), ('e_sam', 'Sam');
!update
INSERT INTO mentions VALUES ('m1', 'e_maya'), ('m2', 'e_rocksdb'), ('m3', 'e_search'),
  ('m3', 'e_postgres'), ('m4', 'e_rocksdb'), ('m5', 'e_rocksdb'), ('m6', 'e_sam'),
  ('m7', 'e_sam'), ('m8', 'e_postgres');
!update

# The frontier per entity: importance and recency, both larger better.
SELECT e.name, PARETO_MAX(ARRAY[m.importance, (m.at - 1751328000) / 86400]) AS frontier
FROM mentions mn JOIN memory m ON m.id = mn.memory JOIN entity e ON e.id = mn.entity
GROUP BY e.name ORDER BY e.name;
name           | frontier
Maya           | [[0.6, 0]]
Postgres       | [[0.75, 7]]
RocksDB        | [[0.85, 4], [0.9, 1]]
Sam            | [[0.5, 5]]
search-service | [[0.7, 2]]
!ok

# Unnested and joined back to the memories that scored each point: the
# spec's six rows. m4 is gone (m5 is more important and more recent).
WITH frontier AS (
  SELECT mn.entity, PARETO_MAX(ARRAY[m.importance, (m.at - 1751328000) / 86400]) AS f
  FROM mentions mn JOIN memory m ON m.id = mn.memory GROUP BY mn.entity)
SELECT e.name, m.id, m.importance, (m.at - 1751328000) / 86400 AS "day"
FROM frontier fr, UNNEST(fr.f) AS u (p), entity e, mentions mn, memory m
WHERE e.id = fr.entity AND mn.entity = fr.entity AND m.id = mn.memory
  AND m.importance = p[1] AND (m.at - 1751328000) / 86400 = p[2]
ORDER BY e.name, "day";
name           | id | importance | day
Maya           | m1 | 0.6        | 0
Postgres       | m8 | 0.75       | 7
RocksDB        | m2 | 0.9        | 1
RocksDB        | m5 | 0.85       | 4
Sam            | m6 | 0.5        | 5
search-service | m3 | 0.7        | 2
!ok

# The same rows as a skyline per entity.
SELECT e.name, m.id, m.importance, (m.at - 1751328000) / 86400 AS "day"
FROM mentions mn JOIN memory m ON m.id = mn.memory JOIN entity e ON e.id = mn.entity
SKYLINE OF e.name DIFF, m.importance MAX, "day" MAX
ORDER BY e.name, "day";
name           | id | importance | day
Maya           | m1 | 0.6        | 0
Postgres       | m8 | 0.75       | 7
RocksDB        | m2 | 0.9        | 1
RocksDB        | m5 | 0.85       | 4
Sam            | m6 | 0.5        | 5
search-service | m3 | 0.7        | 2
!ok

# Mixed objectives by a sign flip: important, and old.
SELECT PARETO_MIN(ARRAY[-importance, (at - 1751328000) / 86400]) AS f FROM memory;
f
[[-0.9, 1], [-0.6, 0]]
!ok

# Equal points collapse; no rows give NULL.
SELECT PARETO_MIN(ARRAY[1, 2]) AS f FROM memory;
f
[[1, 2]]
!ok
SELECT PARETO_MIN(ARRAY[importance]) AS f FROM memory WHERE id = 'none';
f
null
!ok

# Errors: the operand's type when validating, a malformed point when running.
SELECT PARETO_MIN(importance) FROM memory;
From line 1, column 8 to line 1, column 29: PARETO_MIN takes one point, an ARRAY of numbers; got DOUBLE NOT NULL
!error
SELECT PARETO_MAX(ARRAY[text]) FROM memory;
From line 1, column 8 to line 1, column 30: PARETO_MAX takes one point, an ARRAY of numbers; got VARCHAR ARRAY NOT NULL
!error
SELECT PARETO_MIN(CASE WHEN id = 'm3' THEN ARRAY[importance] ELSE ARRAY[importance, 1] END) FROM memory;
PARETO_MIN: points of one group must have the same number of components
!error

# A point with a NULL component is skipped, as SQL's aggregates skip NULLs (m7's, the least
# important); a group of only such points gives NULL.
SELECT PARETO_MIN(ARRAY[importance, CASE WHEN id = 'm7' THEN NULL ELSE 1 END]) AS f FROM memory;
f
[[0.5, 1]]
!ok
SELECT PARETO_MIN(ARRAY[importance, CASE WHEN id = 'm7' THEN NULL ELSE 1 END]) AS f FROM memory
WHERE id = 'm7';
f
null
!ok
