<#--
  Standing quantile queries, planned together by the sketch-sharing planner
  (jdbc-driver's dev.mnestic.standing):

    query WITHIN {RANK | RELATIVE} ERROR bound
    CREATE [OR REPLACE] STANDING QUERY name AS query WITHIN {RANK | RELATIVE} ERROR bound
        [RETAIN interval]
    CREATE [OR REPLACE] STANDING QUERY name AS PROMQL 'expr' [EVERY interval]
        WITHIN {RANK | RELATIVE} ERROR bound [RETAIN interval]
    DROP STANDING QUERY [IF EXISTS] name

  STANDING, QUERY, RETAIN and PROMQL are non-reserved. The target ends the statement (after
  ORDER BY / LIMIT), so it belongs to the whole query: SqlStandingQuery.
-->

/** Parses the target after a query: WITHIN {RANK | RELATIVE} ERROR bound. */
SqlStandingQuery StandingTarget(SqlNode query) :
{
    final Span s;
    final SqlStandingQuery.Metric metric;
    final SqlNode bound;
}
{
    <WITHIN> { s = span(); }
    (
        <RANK> { metric = SqlStandingQuery.Metric.RANK; }
    |
        <RELATIVE> { metric = SqlStandingQuery.Metric.RELATIVE; }
    )
    <ERROR> bound = UnsignedNumericLiteral()
    {
        return new SqlStandingQuery(s.end(this), query, metric, bound);
    }
}

/** PROMQL 'expr' [EVERY interval]: a standing query written in PromQL (SqlPromQl). */
SqlPromQl PromQlBody() :
{
    final Span s;
    final SqlNode text;
    SqlLiteral every = null;
}
{
    <PROMQL> { s = span(); }
    text = StringLiteral()
    [ <EVERY> every = IntervalLiteral() ]
    {
        return new SqlPromQl(s.end(this), (SqlLiteral) text, every);
    }
}

SqlCreate SqlCreateStandingQuery(Span s, boolean replace) :
{
    final SqlIdentifier name;
    final SqlNode query;
    final SqlStandingQuery standing;
    SqlLiteral retain = null;
}
{
    <STANDING> <QUERY> name = SimpleIdentifier() <AS>
    (
        // PROMQL is non-reserved: a query may begin with the name promql
        LOOKAHEAD(2) query = PromQlBody()
    |
        query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    standing = StandingTarget(query)
    [ <RETAIN> retain = IntervalLiteral() ]
    {
        return new SqlCreateStandingQuery(s.end(this), replace, name, standing, retain, null);
    }
}

SqlDrop SqlDropStandingQuery(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <STANDING> <QUERY> ifExists = IfExistsOpt() name = SimpleIdentifier()
    {
        return new SqlDropStandingQuery(s.end(this), ifExists, name);
    }
}
