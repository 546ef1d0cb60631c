<#--
  mnestic's DDL: CREATE TABLE and DROP TABLE, producing Calcite's own
  org.apache.calcite.sql.ddl nodes; jdbc-driver executes them against the store.

  CREATE TABLE [IF NOT EXISTS] name (
      column type [NOT NULL | NULL] [DEFAULT expr] [PRIMARY KEY] [UNIQUE] , ...
      [, [CONSTRAINT name] PRIMARY KEY (column, ...)]
      [, [CONSTRAINT name] UNIQUE (column, ...)] )
  DROP TABLE [IF EXISTS] name
-->

boolean IfNotExistsOpt() :
{
}
{
    <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean IfExistsOpt() :
{
}
{
    <IF> <EXISTS> { return true; }
|
    { return false; }
}

SqlCreate SqlCreateTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    final SqlNodeList elements;
}
{
    <TABLE> ifNotExists = IfNotExistsOpt() id = CompoundIdentifier()
    elements = TableElementList()
    {
        return SqlDdlNodes.createTable(s.end(this), replace, ifNotExists, id,
            elements, null);
    }
}

SqlNodeList TableElementList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TableElement(list)
    ( <COMMA> TableElement(list) )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

void TableElement(List<SqlNode> list) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    Boolean nullable = null;
    SqlNode defaultValue = null;
    Span keySpan = null;
    Span uniqueSpan = null;
    SqlIdentifier name = null;
    final SqlNodeList columnList;
    final Span s = Span.of();
}
{
    id = SimpleIdentifier()
    type = DataType()
    (
        <NOT> <NULL> { nullable = false; }
    |
        <NULL> { nullable = true; }
    |
        <DEFAULT_> defaultValue = Expression(ExprContext.ACCEPT_SUB_QUERY)
    |
        <PRIMARY> { keySpan = span(); } <KEY> { nullable = false; }
    |
        <UNIQUE> { uniqueSpan = span(); }
    )*
    {
        final boolean notNull = nullable != null && !nullable;
        final ColumnStrategy strategy = defaultValue != null
            ? ColumnStrategy.DEFAULT
            : notNull ? ColumnStrategy.NOT_NULLABLE : ColumnStrategy.NULLABLE;
        list.add(
            SqlDdlNodes.column(s.add(id).end(this), id,
                type.withNullable(!notNull), defaultValue, strategy));
        if (keySpan != null) {
            list.add(SqlDdlNodes.primary(keySpan.end(this), null,
                new SqlNodeList(Collections.singletonList(id), id.getParserPosition())));
        }
        if (uniqueSpan != null) {
            list.add(SqlDdlNodes.unique(uniqueSpan.end(this), null,
                new SqlNodeList(Collections.singletonList(id), id.getParserPosition())));
        }
    }
|
    [ <CONSTRAINT> { s.add(this); } name = SimpleIdentifier() ]
    (
        <PRIMARY> { s.add(this); } <KEY>
        columnList = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.primary(s.end(columnList), name, columnList));
        }
    |
        <UNIQUE> { s.add(this); }
        columnList = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.unique(s.end(columnList), name, columnList));
        }
    )
}

SqlDrop SqlDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier id;
}
{
    <TABLE> ifExists = IfExistsOpt() id = CompoundIdentifier() {
        return SqlDdlNodes.dropTable(s.end(this), ifExists, id);
    }
}
