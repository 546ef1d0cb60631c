package dev.mnestic.jdbc;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites, in a parsed statement, an OR chain that compares one column with
 * {@link #MIN_EQUALITIES} literals or more ({@code a = 1 OR a = 2 OR ...}) into an IN list
 * ({@code a IN (1, 2, ...)}), the other terms of the chain staying as they were.
 *
 * <p>The two mean the same (SQL defines {@code x IN (v1, v2)} as {@code x = v1 OR x = v2}, in
 * three-valued logic too), but Calcite validates, simplifies and compiles an OR chain into one
 * Java method in time about quadratic in its length and fails past about a thousand terms
 * (code too large), while it turns an IN list into a join with its values, which
 * {@code EnumerableStashedValues} keeps as data: a chain of 10,000 equalities runs, most of its
 * time (5-14 s on a loaded 2-core machine) spent in Calcite's parser, before this rewriting.
 */
final class OrChains {
  /**
   * Fewest equalities of one column with literals of one type family that become an IN list;
   * shorter chains keep the plans Calcite makes of them (a search of a few points).
   */
  static final int MIN_EQUALITIES = 64;

  private OrChains() {
  }

  /** Rewrites, in place, the OR chains in {@code statement} as the class Javadoc says. */
  static void rewrite(SqlNode statement) {
    visit(statement);
  }

  /** Rewrites the OR chains among the operands of {@code node} (and deeper). */
  private static void visit(SqlNode node) {
    if (node instanceof SqlNodeList list) {
      for (int i = 0; i < list.size(); i++) {
        final SqlNode operand = list.get(i);
        final SqlNode rewritten = rewriteOperand(operand);
        if (rewritten != operand) {
          list.set(i, rewritten);
        }
      }
    } else if (node instanceof SqlCall call) {
      final List<SqlNode> operands = call.getOperandList();
      for (int i = 0; i < operands.size(); i++) {
        final SqlNode operand = operands.get(i);
        final SqlNode rewritten = rewriteOperand(operand);
        if (rewritten != operand) {
          try {
            call.setOperand(i, rewritten);
          } catch (UnsupportedOperationException e) {
            // A call whose operands are fixed (a lambda, a MATCH_RECOGNIZE) keeps its chain,
            // which StatementShape's limit of operators then judges.
          }
        }
      }
    }
  }

  /**
   * {@code node} itself if it is no OR chain to rewrite (its operands rewritten in place),
   * otherwise a new chain with IN lists in place of the equalities.
   */
  private static SqlNode rewriteOperand(SqlNode node) {
    if (node == null || node.getKind() != SqlKind.OR) {
      if (node != null) {
        visit(node);
      }
      return node;
    }
    final List<SqlNode> terms = terms((SqlCall) node);
    // The equalities of each column with literals of one family, in the order they come.
    final Map<String, List<SqlNode>> groups = new LinkedHashMap<>();
    for (SqlNode term : terms) {
      visit(term);
      final String key = equalityKey(term);
      if (key != null) {
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(term);
      }
    }
    groups.values().removeIf(group -> group.size() < MIN_EQUALITIES);
    if (groups.isEmpty()) {
      return node;
    }
    // Each group becomes one IN list where its first equality was; OR is commutative.
    final List<SqlNode> kept = new ArrayList<>();
    for (SqlNode term : terms) {
      final String key = equalityKey(term);
      final List<SqlNode> group = key == null ? null : groups.get(key);
      if (group == null) {
        kept.add(term);
      } else if (group.get(0) == term) {
        kept.add(inList(group));
      }
    }
    SqlNode chain = kept.get(0);
    for (int i = 1; i < kept.size(); i++) {
      chain = SqlStdOperatorTable.OR.createCall(
          chain.getParserPosition().plus(kept.get(i).getParserPosition()), chain, kept.get(i));
    }
    return chain;
  }

  /**
   * The terms of the OR chain {@code or}, in their order, however its parentheses group them
   * (without recursion: a chain of 10,000 terms is a tree 10,000 deep).
   */
  private static List<SqlNode> terms(SqlCall or) {
    final List<SqlNode> terms = new ArrayList<>();
    final Deque<SqlNode> pending = new ArrayDeque<>();
    pending.push(or);
    while (!pending.isEmpty()) {
      final SqlNode node = pending.pop();
      if (node.getKind() == SqlKind.OR) {
        final List<SqlNode> operands = ((SqlCall) node).getOperandList();
        for (int i = operands.size() - 1; i >= 0; i--) {
          pending.push(operands.get(i));
        }
      } else {
        terms.add(node);
      }
    }
    return terms;
  }

  /**
   * For {@code column = literal} (either way round; the literal not NULL, perhaps negated):
   * the column's name and the literal's type family; for another term, null.
   */
  private static String equalityKey(SqlNode term) {
    if (term.getKind() != SqlKind.EQUALS) {
      return null;
    }
    final SqlCall equals = (SqlCall) term;
    final SqlNode left = equals.operand(0);
    final SqlNode right = equals.operand(1);
    final SqlNode column = left instanceof SqlIdentifier ? left : right;
    final SqlTypeFamily family = family(column == left ? right : left);
    return column instanceof SqlIdentifier id && family != null
        ? String.join(".", id.names) + " " + family : null;
  }

  /** The type family of the literal {@code node}, or null when it is none or NULL. */
  private static SqlTypeFamily family(SqlNode node) {
    final SqlNode literal = node.getKind() == SqlKind.MINUS_PREFIX
        ? ((SqlCall) node).operand(0) : node;
    return literal instanceof SqlLiteral l && l.getTypeName().getFamily() != null
        && l.getTypeName().getFamily() != SqlTypeFamily.NULL
        && (literal == node || l.getTypeName().getFamily() == SqlTypeFamily.NUMERIC)
        ? l.getTypeName().getFamily() : null;
  }

  /** {@code column IN (v1, v2, ...)} of the equalities {@code group}, at the first's place. */
  private static SqlNode inList(List<SqlNode> group) {
    final SqlCall first = (SqlCall) group.get(0);
    final SqlNode column = first.operand(0) instanceof SqlIdentifier
        ? first.operand(0) : first.operand(1);
    final SqlNodeList values = new SqlNodeList(first.getParserPosition());
    for (SqlNode term : group) {
      final SqlCall equals = (SqlCall) term;
      values.add(equals.operand(0) instanceof SqlIdentifier ? equals.operand(1)
          : equals.operand(0));
    }
    final SqlParserPos pos = first.getParserPosition();
    return SqlStdOperatorTable.IN.createCall(pos, column, values);
  }
}
