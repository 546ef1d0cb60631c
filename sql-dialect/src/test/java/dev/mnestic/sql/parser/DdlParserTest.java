package dev.mnestic.sql.parser;

import dev.mnestic.sql.parser.impl.MnesticSqlParserImpl;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mnestic's grammar additions: CREATE/DROP TABLE, and AT as a name. */
class DdlParserTest {
  private static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, SqlParser.config()
            .withParserFactory(MnesticSqlParserImpl.FACTORY)
            .withUnquotedCasing(Casing.UNCHANGED))
        .parseStmt();
  }

  @Test void createTableWithConstraints() throws SqlParseException {
    final SqlCreateTable create = assertInstanceOf(SqlCreateTable.class, parse(
        "CREATE TABLE IF NOT EXISTS memory (id VARCHAR(10) PRIMARY KEY,"
            + " importance DOUBLE NOT NULL, kind VARCHAR DEFAULT 'episodic' NOT NULL, at TIMESTAMP,"
            + " CONSTRAINT u UNIQUE (kind, at))"));
    assertTrue(create.ifNotExists);
    assertEquals("memory", create.name.getSimple());
    // 4 columns, the column-level primary key, the named unique constraint
    assertEquals(6, create.columnList.size());
    assertEquals("CREATE TABLE IF NOT EXISTS `memory` (`id` VARCHAR(10) NOT NULL,"
            + " PRIMARY KEY (`id`), `importance` DOUBLE NOT NULL,"
            + " `kind` VARCHAR NOT NULL DEFAULT ('episodic'), `at` TIMESTAMP,"
            + " CONSTRAINT `u` UNIQUE (`kind`, `at`))",
        create.toString().replace("\n", " ").replaceAll(" +", " "));
  }

  @Test void dropTable() throws SqlParseException {
    final SqlDropTable drop = assertInstanceOf(SqlDropTable.class, parse("DROP TABLE IF EXISTS t"));
    assertTrue(drop.ifExists);
  }

  @Test void atIsAName() throws SqlParseException {
    assertEquals("SELECT `at`\nFROM `memory`\nWHERE `at` > 0",
        parse("SELECT at FROM memory WHERE at > 0").toString());
  }

  @Test void errorsNameLineAndColumn() {
    final SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("CREATE TABLE t (\n  a INT,\n  b INT DEFAULT\n)"));
    assertEquals(4, e.getPos().getLineNum());
    assertEquals(1, e.getPos().getColumnNum());
  }
}
