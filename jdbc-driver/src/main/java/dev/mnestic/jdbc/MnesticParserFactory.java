package dev.mnestic.jdbc;

import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.parser.impl.MnesticSqlParserImpl;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

import java.io.Reader;

/**
 * The parser every mnestic connection uses: mnestic's SQL dialect
 * (sql-dialect), whose DDL runs against the store and its standing queries.
 */
public final class MnesticParserFactory implements SqlParserImplFactory {
  /** Named by the {@code parserFactory} connection property. */
  public static final MnesticParserFactory INSTANCE = new MnesticParserFactory();

  private MnesticParserFactory() {
  }

  /** How a connection of {@code config} parses its statements, with this parser. */
  public static SqlParser.Config parserConfig(CalciteConnectionConfig config) {
    return SqlParser.config()
        .withQuotedCasing(config.quotedCasing())
        .withUnquotedCasing(config.unquotedCasing())
        .withQuoting(config.quoting())
        .withConformance(config.conformance())
        .withCaseSensitive(config.caseSensitive())
        .withParserFactory(config.parserFactory(SqlParserImplFactory.class, INSTANCE));
  }

  /**
   * A parser of {@code stream}, which it reads with a look at the running statement's flag
   * before each read: parsing a huge statement stops at its timeout or cancel.
   */
  @Override public SqlAbstractParserImpl getParser(Reader stream) {
    return MnesticSqlParserImpl.FACTORY.getParser(RunningStatement.checked(stream));
  }

  /** Standing-query DDL to the standing queries, the rest to the store. */
  @Override public DdlExecutor getDdlExecutor() {
    return MnesticDdlExecutor.INSTANCE;
  }
}
