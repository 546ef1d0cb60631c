package dev.mnestic.jdbc;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks on an SQL statement's shape, each failing at the place the
 * statement passes its limit:
 * <ul>
 *   <li>before it is parsed: its text is not empty, its parentheses and
 *       brackets nest at most {@link #MAX_DEPTH} levels, and no expression
 *       holds more than {@link #MAX_CHAIN} operators between its
 *       parentheses and commas;
 *   <li>once parsed (and its long OR chains of equalities are IN lists,
 *       {@link OrChains}): it holds at most {@link #MAX_OPERATORS} operators,
 *       and each select list at most as many items.
 * </ul>
 * Parsing, validating and planning recurse once per level; a deeper
 * statement is refused here rather than when a stack runs out.
 * (Preparation runs on a {@link DeepStack} thread, which takes the limit,
 * and chains of operators as long, with room.) Calcite's parser takes time
 * quadratic in the operators of one expression, and its validation,
 * planning and compilation (the statement's expressions are one Java
 * method) about quadratic in the operators of a statement and the items
 * of a select list: past the limits a statement is refused at once rather than
 * after minutes or with "code too large".
 */
final class StatementShape {
  /** Deepest nesting of parentheses and brackets a statement may have. */
  static final int MAX_DEPTH = 2_000;

  /**
   * Most operators (symbols such as {@code +} or {@code <=}, and OR, AND, NOT, LIKE, IS) one
   * expression may hold between its parentheses and commas: a chain of 10,000 equalities joined
   * by OR (19,999 operators) passes; Calcite parses it in 5-14 s on a loaded 2-core machine.
   */
  static final int MAX_CHAIN = 20_000;

  /** Words that are operators for {@link #MAX_CHAIN}. */
  private static final Set<String> OPERATOR_WORDS = Set.of("OR", "AND", "NOT", "LIKE", "IS");

  /**
   * Most operators (calls of operators and functions, CASE arms) a parsed statement may hold,
   * and most items one of its select lists may hold; an IN list counts as one operator whatever its length, rows of VALUES,
   * NOT and signs of literals as none (they are data or fold away). On a loaded 2-core machine
   * a statement of 500 takes 3-10 s to prepare.
   */
  static final int MAX_OPERATORS = 500;

  /** Calls that are no operator of the count: they structure a statement or fold away. */
  private static final Set<SqlKind> NOT_COUNTED = Set.of(SqlKind.AS, SqlKind.ROW,
      SqlKind.VALUES, SqlKind.NOT, SqlKind.DESCENDING, SqlKind.NULLS_FIRST, SqlKind.NULLS_LAST,
      SqlKind.EXPLICIT_TABLE);

  private StatementShape() {
  }

  /**
   * Throws (SQLSTATE 42601) if {@code sql} holds nothing but blanks and comments, or (54001)
   * if its parentheses and brackets, outside literals, quoted names and comments, nest deeper
   * than {@link #MAX_DEPTH} or an expression holds more than {@link #MAX_CHAIN} operators,
   * naming the line and column where it does.
   */
  static void check(String sql) throws SQLException {
    final int n = sql.length();
    boolean empty = true;
    int depth = 0;
    // The operators so far of the expression at each level of parentheses.
    final int[] operators = new int[MAX_DEPTH + 1];
    // Whether the last token was an operator, an opening parenthesis or a comma: a sign then.
    boolean sign = true;
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < n; i++) {
      final char c = sql.charAt(i);
      if (c == '\n') {
        line++;
        lineStart = i + 1;
        continue;
      }
      if (Character.isWhitespace(c)) {
        continue;
      }
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i + 1 < n && sql.charAt(i + 1) != '\n') {
          i++;
        }
        continue;
      }
      if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        final int end = sql.indexOf("*/", i + 2);
        final int stop = end < 0 ? n : end + 2;
        for (int j = i; j < stop; j++) {
          if (sql.charAt(j) == '\n') {
            line++;
            lineStart = j + 1;
          }
        }
        i = stop - 1;
        continue;
      }
      empty = false;
      if (c == '\'' || c == '"' || c == '`') {
        // A quote doubled inside is the quote itself: the scan resumes at the next one.
        int j = i + 1;
        while (j < n && sql.charAt(j) != c) {
          if (sql.charAt(j) == '\n') {
            line++;
            lineStart = j + 1;
          }
          j++;
        }
        i = j;
        sign = false;
      } else if (c == '(' || c == '[') {
        if (++depth > MAX_DEPTH) {
          throw new SQLException("At line " + line + ", column " + (i - lineStart + 1)
              + ": expressions nested deeper than the limit of " + MAX_DEPTH + " levels",
              SqlFailures.TOO_COMPLEX);
        }
        operators[depth] = 0;
        sign = true;
      } else if ((c == ')' || c == ']') && depth > 0) {
        depth--;
        sign = false;
      } else if (c == ',') {
        operators[depth] = 0;
        sign = true;
      } else if (Character.isLetterOrDigit(c) || c == '_') {
        int j = i + 1;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_'
            || sql.charAt(j) == '$')) {
          j++;
        }
        final boolean operator = j - i <= 4
            && OPERATOR_WORDS.contains(sql.substring(i, j).toUpperCase(Locale.ROOT));
        if (operator && ++operators[depth] > MAX_CHAIN) {
          throw tooLongChain(line, i - lineStart + 1);
        }
        sign = operator;
        i = j - 1;
      } else if (OPERATOR_SYMBOLS.indexOf(c) >= 0) {
        // A run of symbols (<=, ||, a minus after an operator) counts once, a sign not at all.
        final boolean counted = !(sign && (c == '-' || c == '+'));
        while (i + 1 < n && OPERATOR_SYMBOLS.indexOf(sql.charAt(i + 1)) >= 0) {
          i++;
        }
        if (counted && ++operators[depth] > MAX_CHAIN) {
          throw tooLongChain(line, i - lineStart + 1);
        }
        sign = true;
      } else {
        sign = false;
      }
    }
    if (empty) {
      throw new SQLSyntaxErrorException("empty statement: nothing to run", "42601");
    }
  }

  /** Characters of operators for {@link #MAX_CHAIN}. */
  private static final String OPERATOR_SYMBOLS = "+-*/%|=<>!";

  private static SQLException tooLongChain(int line, int column) {
    return new SQLException("At line " + line + ", column " + column + ": expression holds more"
        + " than the limit of " + MAX_CHAIN + " operators", SqlFailures.TOO_COMPLEX);
  }

  /**
   * Throws (SQLSTATE 54001) if the parsed {@code statement} holds more than
   * {@link #MAX_OPERATORS} operators or a select list of more items, naming the line and
   * column of the operand or item where the count passes the limit (counted in the
   * statement's order).
   */
  static void checkOperators(SqlNode statement) throws SQLException {
    final var counter = new Object() {
      int count;
      /** Whether the limit passed is a select list's. */
      boolean longList;

      /** The operand where the count passes the limit under {@code node}, or null. */
      SqlNode visit(SqlNode node) {
        if (node instanceof SqlNodeList list) {
          for (SqlNode item : list) {
            final SqlNode found = visit(item);
            if (found != null) {
              return found;
            }
          }
        } else if (node instanceof SqlSelect select) {
          // Validation is quadratic in one select list's items (each looks for aggregates in
          // all), so each list has its own limit: 1,000 nested one-item subqueries are fine.
          int items = 0;
          for (SqlNode item : select.getSelectList()) {
            if (++items > MAX_OPERATORS) {
              longList = true;
              return item;
            }
          }
          for (SqlNode operand : select.getOperandList()) {
            final SqlNode found = visit(operand);
            if (found != null) {
              return found;
            }
          }
        } else if (node instanceof SqlCase c) {
          // Each arm is an operator, even of a simple CASE (CASE a WHEN 1 THEN ...).
          SqlNode found = visit(c.getValueOperand());
          for (int i = 0; found == null && i < c.getWhenOperands().size(); i++) {
            final SqlNode when = c.getWhenOperands().get(i);
            found = ++count > MAX_OPERATORS ? when : visit(when);
            found = found != null ? found : visit(c.getThenOperands().get(i));
          }
          return found != null ? found : visit(c.getElseOperand());
        } else if (node instanceof SqlCall call) {
          final boolean counted = counts(call);
          final List<SqlNode> operands = call.getOperandList();
          // An operator counts after its first operand, so that a left-deep chain (a + 1 + 1)
          // counts its operators in the order they are written.
          for (int i = 0; i < operands.size(); i++) {
            if (counted && i == 1 && ++count > MAX_OPERATORS) {
              return operands.get(1) != null ? operands.get(1) : call;
            }
            final SqlNode found = visit(operands.get(i));
            if (found != null) {
              return found;
            }
          }
          if (counted && operands.size() < 2 && ++count > MAX_OPERATORS) {
            return call;
          }
        }
        return null;
      }
    };
    final SqlNode past = counter.visit(statement);
    if (past != null) {
      final SqlParserPos pos = past.getParserPosition();
      throw new SQLException("At line " + pos.getLineNum() + ", column " + pos.getColumnNum()
          + (counter.longList
              ? ": select list holds more than the limit of " + MAX_OPERATORS + " items"
              : ": statement holds more than the limit of " + MAX_OPERATORS + " operators (an"
                  + " OR of many equalities of one column with values is best written as an IN"
                  + " list)"),
          SqlFailures.TOO_COMPLEX);
    }
  }

  /** Whether {@code call} counts as an operator for {@link #checkOperators}. */
  private static boolean counts(SqlCall call) {
    if (!(call instanceof SqlBasicCall) || NOT_COUNTED.contains(call.getKind())
        || call.getKind().belongsTo(SqlKind.QUERY)) {
      return false;
    }
    return !((call.getKind() == SqlKind.MINUS_PREFIX || call.getKind() == SqlKind.PLUS_PREFIX)
        && call.operand(0) instanceof SqlLiteral);
  }
}
