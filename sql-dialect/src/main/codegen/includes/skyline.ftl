<#--
  SKYLINE OF, after WHERE / GROUP BY / HAVING / WINDOW / QUALIFY and before
  ORDER BY / LIMIT / OFFSET / FETCH, in every query block:

    SKYLINE OF [DISTINCT] expr {MIN | MAX | DIFF} [, expr {MIN | MAX | DIFF}]...

  SKYLINE and DIFF are non-reserved. A block with the clause is an
  SqlSkylineSelect; each item is a call to MIN, MAX or DIFF
  (SqlSkylineSelect.item). Items hold no sub-queries.
-->

/** Whether SKYLINE OF comes next: it ends a FROM clause, so no table is aliased "skyline" there. */
JAVACODE boolean skylineOfFollows() {
    return getToken(1).kind == SKYLINE && getToken(2).kind == OF;
}

/** Parses a SELECT block without ORDER BY, and its SKYLINE OF clause if it has one. */
SqlSelect SqlSelect() :
{
    final SqlSelect select;
    final Span s;
    boolean distinct = false;
    final List<SqlNode> items = new ArrayList<SqlNode>();
}
{
    select = SqlSelectWithoutSkyline()
    (
        <SKYLINE> { s = span(); } <OF>
        [ <DISTINCT> { distinct = true; } ]
        SkylineItem(items)
        ( LOOKAHEAD(2) <COMMA> SkylineItem(items) )*
        {
            return new SqlSkylineSelect(select, distinct,
                new SqlNodeList(items, s.addAll(items).pos()));
        }
    |
        { return select; }
    )
}

/** Parses {@code expr MIN}, {@code expr MAX} or {@code expr DIFF}. */
void SkylineItem(List<SqlNode> list) :
{
    final SqlNode e;
    final Skylines.Direction direction;
}
{
    e = Expression(ExprContext.ACCEPT_NON_QUERY)
    (
        <MIN> { direction = Skylines.Direction.MIN; }
    |
        <MAX> { direction = Skylines.Direction.MAX; }
    |
        <DIFF> { direction = Skylines.Direction.DIFF; }
    )
    {
        list.add(SqlSkylineSelect.item(direction, e, Span.of(e).end(this)));
    }
}
