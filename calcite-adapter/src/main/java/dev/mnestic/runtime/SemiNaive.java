package dev.mnestic.runtime;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.schema.ModifiableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TransientTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runtime of {@link dev.mnestic.rel.RecursiveUnion}: semi-naive evaluation
 * of n mutually recursive relations to their least fixpoint.
 *
 * <p>State of relation i, by the names the algorithm gives it:
 * <ol>
 *   <li>{@code stable} ({@code full_i}'s rows, with {@code seen_i} their set): every
 *       tuple derived so far;
 *   <li>{@code recent} ({@code delta_i}): the tuples the last round added; the
 *       iterative parts read it to derive only from new tuples;
 *   <li>{@code toAdd}: what this round derived that {@code seen_i} lacks.
 * </ol>
 * A round computes every {@code toAdd} from the same {@code stable} and
 * {@code recent}, then merges: {@code stable ∪= toAdd; recent = toAdd}.
 * The fixpoint is reached when every {@code toAdd} is empty.
 */
public final class SemiNaive {
  private SemiNaive() {
  }

  /** Evaluates to the fixpoint; returns relation 0's rows. */
  public static Enumerable<Object[]> fixpoint(DataContext root,
      Enumerable<Object[]>[] seeds, Enumerable<Object[]>[] iteratives,
      TransientTable[] full, TransientTable[] delta, String[] names, int maxIterations) {
    final int n = seeds.length;
    final SchemaPlus schema = root.getRootSchema();
    final List<Table> tables = new ArrayList<>(Arrays.asList(full));
    tables.addAll(Arrays.asList(delta));
    for (int k = 0; k < tables.size(); k++) {
      schema.add(names[k], tables.get(k));
    }
    try {
      final List<Set<List<Object>>> seen = new ArrayList<>();
      final List<List<Object[]>> stable = new ArrayList<>();
      final List<List<Object[]>> recent = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        seen.add(new HashSet<>());
        stable.add(rows(full[i]));
        recent.add(rows(delta[i]));
        stable.get(i).clear();
        recent.get(i).clear();
        // full_i = delta_i = distinct(seed_i)
        for (Object[] row : seeds[i]) {
          if (seen.get(i).add(Arrays.asList(row.clone()))) {
            stable.get(i).add(row);
            recent.get(i).add(row);
          }
        }
      }
      final AtomicBoolean cancelled = DataContext.Variable.CANCEL_FLAG.get(root);
      for (int round = 1; ; round++) {
        if (round > maxIterations) {
          throw new IllegalStateException("recursion did not reach a fixpoint after "
              + maxIterations + " iterations");
        }
        // toAdd_i = distinct(iterative_i) − seen_i, all from the same stable and recent
        final List<List<Object[]>> toAdd = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          final Set<List<Object>> fresh = new HashSet<>();
          final List<Object[]> add = new ArrayList<>();
          for (Object[] row : iteratives[i]) {
            final List<Object> key = Arrays.asList(row.clone());
            if (!seen.get(i).contains(key) && fresh.add(key)) {
              add.add(row);
            }
          }
          toAdd.add(add);
        }
        // Cancelled scans read nothing: a quiet round then proves nothing.
        if (cancelled != null && cancelled.get()) {
          throw new IllegalStateException("recursion cancelled after " + round
              + " iterations (query timeout or cancel)");
        }
        boolean changed = false;
        for (int i = 0; i < n; i++) {
          recent.get(i).clear();
          for (Object[] row : toAdd.get(i)) {
            seen.get(i).add(Arrays.asList(row.clone()));
            stable.get(i).add(row);
            recent.get(i).add(row);
          }
          changed |= !toAdd.get(i).isEmpty();
        }
        if (!changed) {
          return Linq4j.asEnumerable(new ArrayList<>(stable.get(0)));
        }
      }
    } finally {
      for (String name : names) {
        schema.removeTable(name);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Object[]> rows(TransientTable table) {
    return (List<Object[]>) ((ModifiableTable) table).getModifiableCollection();
  }
}
