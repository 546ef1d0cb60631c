package dev.mnestic.examples;

import dev.mnestic.cli.Main;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every example of the repository's README.md runs as written, in order, as on a fresh clone:
 * <ul>
 *   <li>each line of an {@code sh} block is one command: {@code bin/mnestic ...} runs the command
 *       line's own code ({@link Main}, in-process); {@code java -cp CP CLASS} runs CLASS's main
 *       once CP names the jar {@code bin/mnestic} runs and this module's classes; {@code mvn}
 *       is skipped (it is the build running this test);
 *   <li>each {@code sql} block is one {@code mnestic sql -f -} script, all of them on one store;
 *   <li>each {@code java} block is compiled as the body of a {@code main} importing
 *       {@code java.sql.*}, and run;
 *   <li>a {@code text} block shows the output of the block before it, compared exactly.
 * </ul>
 * Every command must succeed with nothing on standard error. Paths are the README's, relative to
 * the clone's root: {@code examples/...} are the repository's files, and the stores
 * {@code ./name} the commands make go to a scratch directory instead of the checkout.
 */
class ReadmeTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern BLOCK = Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```\\n",
      Pattern.DOTALL);

  @TempDir Path scratch;

  /** One fenced block of the README. */
  private record Block(String language, String text, int line) {
  }

  /** Output and exit status of one example. */
  private record Run(int status, String out, String err) {
  }

  @Test void everyExampleRunsInOrder() throws Exception {
    final String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    final List<Block> blocks = new ArrayList<>();
    final Matcher m = BLOCK.matcher(readme);
    while (m.find()) {
      blocks.add(new Block(m.group(1), m.group(2),
          readme.substring(0, m.start()).split("\n", -1).length));
    }
    int ran = 0;
    Run previous = null;
    for (Block block : blocks) {
      final String where = "README.md:" + block.line() + " (" + block.language() + ")";
      switch (block.language()) {
      case "sh" -> {
        for (String line : block.text().split("\n")) {
          final List<String> words = words(line);
          if (words.isEmpty() || words.get(0).equals("mvn")) {
            continue;
          }
          previous = command(words);
          assertOk(where + ": " + line, previous);
          ran++;
        }
      }
      case "sql" -> {
        previous = mnestic(block.text(), "sql", "--db", scratch.resolve("sql").toString(),
            "-f", "-");
        assertOk(where, previous);
        ran++;
      }
      case "java" -> {
        previous = java(block.text().replace("db=./", "db=" + scratch + "/"));
        assertOk(where, previous);
        ran++;
      }
      case "text" -> {
        assertTrue(previous != null, where + " shows no example's output");
        assertEquals(block.text(), previous.out(), where);
      }
      default -> fail(where + ": a block of no language this test runs");
      }
    }
    assertEquals(24, ran, "examples run (adding one to the README changes this)");
  }

  private static void assertOk(String where, Run run) {
    assertEquals(new Run(0, run.out(), ""), run, where);
  }

  /** The shell words of {@code line}, quotes removed, up to a {@code #} comment. */
  static List<String> words(String line) {
    final List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < line.length(); i++) {
      final char c = line.charAt(i);
      if (c == '\'' || c == '"') {
        final int end = line.indexOf(c, i + 1);
        assertTrue(end > i, "unclosed quote in " + line);
        word = word == null ? new StringBuilder() : word;
        word.append(line, i + 1, end);
        i = end;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else if (c == '#' && word == null) {
        break;
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  /** Runs one {@code sh} line's command. */
  private Run command(List<String> words) throws Exception {
    final List<String> args = new ArrayList<>();
    for (String w : words.subList(1, words.size())) {
      args.add(w.startsWith("./") ? scratch.resolve(w.substring(2)).toString()
          : w.startsWith("examples/") ? ROOT.resolve(w).toString() : w);
    }
    switch (words.get(0)) {
    case "bin/mnestic":
      return mnestic("", args.toArray(new String[0]));
    case "java":
      assertEquals("-cp", args.get(0));
      final String jar = Files.readString(ROOT.resolve("bin/mnestic"), StandardCharsets.UTF_8)
          .replaceAll("(?s).*\\njar=\"\\$root/([^\"]+)\"\\n.*", "$1");
      assertEquals(List.of(jar, "examples/target/classes"),
          List.of(args.get(1).split(":")), "the class path: bin/mnestic's jar and the examples");
      assertTrue(Files.isDirectory(Path.of("target/classes")));
      return main(Class.forName(args.get(2)).getMethod("main", String[].class),
          args.subList(3, args.size()));
    default:
      throw new AssertionError("not a command of the README: " + words);
    }
  }

  private static Run mnestic(String stdin, String... args) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final int status = Main.run(args,
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Compiles {@code body} as the body of a {@code main} and runs it. */
  private Run java(String body) throws Exception {
    final Path source = scratch.resolve("src/Snippet.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, "import java.sql.*;\npublic class Snippet {\n"
        + "  public static void main(String[] args) throws Exception {\n" + body + "  }\n}\n");
    final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(0, javac.run(null, null, err, "-d", scratch.resolve("classes").toString(),
        source.toString()), err.toString(StandardCharsets.UTF_8));
    try (URLClassLoader loader = new URLClassLoader(
        new URL[] {scratch.resolve("classes").toUri().toURL()}, getClass().getClassLoader())) {
      return main(loader.loadClass("Snippet").getMethod("main", String[].class), List.of());
    }
  }

  /** Runs {@code main} with {@code args}, its standard output captured. */
  private static Run main(Method main, List<String> args) throws Exception {
    final PrintStream stdout = System.out;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      main.invoke(null, (Object) args.toArray(new String[0]));
    } finally {
      System.setOut(stdout);
    }
    return new Run(0, out.toString(StandardCharsets.UTF_8), "");
  }
}
