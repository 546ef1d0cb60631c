package dev.mnestic.runtime;

import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 4: {@link RunningStatement#compiled} lets Janino compile a
 * statement's program only when the statement still runs and the program is no longer than
 * {@link RunningStatement#MAX_PROGRAM_CHARS}. The program is handed over as Calcite hands it,
 * through {@code Hook.JAVA_PLAN} (as {@code EnumerableInterpretable.toBindable} does between
 * generating and compiling); what follows the hook stands for the compilation.
 */
class CompiledTest {
  /** Runs the hook with {@code program}, then "compiles": true if it got that far. */
  private static boolean generateAndCompile(String program) {
    Hook.JAVA_PLAN.run(program);
    return true;
  }

  @Test void aProgramWithinTheLimitIsCompiled() {
    try (RunningStatement s = RunningStatement.start(new AtomicBoolean(), 0, 0).enter()) {
      try {
        assertTrue(RunningStatement.compiled(() -> generateAndCompile("x".repeat(1000))));
      } finally {
        s.exit();
      }
    }
    assertTrue(RunningStatement.compiled(() -> generateAndCompile("x".repeat(1000))));
  }

  @Test void aProgramOverTheLimitIsRefusedWith54001() {
    final AtomicBoolean compiled = new AtomicBoolean();
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> RunningStatement.compiled(() -> compiled.getAndSet(
            generateAndCompile("x".repeat(RunningStatement.MAX_PROGRAM_CHARS + 1)))));
    assertFalse(compiled.get());
    final SQLException state = (SQLException) e.getCause();
    assertEquals("54001", state.getSQLState());
    assertTrue(state.getMessage().contains("is 1,048,577 characters long, over the limit of"
        + " 1,048,576"), state.getMessage());
  }

  /** Stopped while its program was generated: the program is not compiled. */
  @Test void aStatementStoppedMeanwhileCompilesNothing() {
    final AtomicBoolean compiled = new AtomicBoolean();
    try (RunningStatement s = RunningStatement.start(new AtomicBoolean(), 0, 0).enter()) {
      try {
        assertThrows(RunningStatement.StatementStoppedException.class,
            () -> RunningStatement.compiled(() -> {
              s.stop(RunningStatement.Cause.TIMEOUT, "timed out");
              return compiled.getAndSet(generateAndCompile("x"));
            }));
        assertFalse(compiled.get());
        assertEquals("HYT00", s.error(null).getSQLState());
      } finally {
        s.exit();
      }
    }
  }
}
