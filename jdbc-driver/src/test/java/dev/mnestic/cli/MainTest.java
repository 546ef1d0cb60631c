package dev.mnestic.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs {@link Main} in this JVM, end to end: arguments in, output and exit status out. */
class MainTest {
  /** Output and exit status of one run. */
  record Run(int status, String out, String err) {
  }

  /** One run of {@link Main} with {@code stdin} as its standard input. */
  static Run runWithInput(String stdin, String... args) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final int status = Main.run(args,
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Run run(String... args) {
    return runWithInput("", args);
  }

  private static void assertOk(String expectedOut, Run run) {
    assertEquals(new Run(0, expectedOut, ""), run);
  }

  @Test void selectOne() {
    assertOk("EXPR$0\n1\n", run("sql", "SELECT 1"));
  }

  @Test void formats() {
    assertOk("{\"headers\":[\"x\"],\"rows\":[[1]]}\n",
        run("sql", "--format", "json", "SELECT 1 AS x"));
    assertOk("x\n1\n", run("sql", "SELECT 1 AS x", "--format=csv"));
  }

  @Test void scriptInFileWithPersistentStore(@TempDir Path dir) throws IOException {
    final Path script = dir.resolve("people.sql");
    Files.writeString(script, """
        -- Creates and fills a table.
        CREATE TABLE person (id VARCHAR(10) PRIMARY KEY, name VARCHAR(20), importance DOUBLE);
        INSERT INTO person VALUES ('m1', 'Maya', 0.6), ('a1', 'Ana; B.', 0.9);
        SELECT name, id, importance FROM person ORDER BY id;
        """);
    final String db = dir.resolve("store").toString();
    assertOk("name       id    importance\n"
        + "Ana; B.    a1    0.9\n"
        + "Maya       m1    0.6\n", run("sql", "--db", db, "-f", script.toString()));
    // A second process, so to speak, sees what the first committed.
    assertOk("{\"headers\":[\"n\"],\"rows\":[[2]]}\n",
        run("sql", "--db", db, "--format", "json", "SELECT COUNT(*) AS n FROM person"));
  }

  @Test void severalResultSets() {
    final String script = "SELECT 1 AS a; CREATE TABLE t (x INT); INSERT INTO t VALUES 7; SELECT x FROM t;";
    assertOk("a\n1\n\nx\n7\n", run("sql", script));
    assertOk("{\"headers\":[\"a\"],\"rows\":[[1]]}\n{\"headers\":[\"x\"],\"rows\":[[7]]}\n",
        run("sql", "--format", "json", script));
    assertOk("a\n1\n\nx\n7\n", run("sql", "--format", "csv", script));
  }

  @Test void scriptFromStandardInput() {
    assertOk("x\n'; --\n", runWithInput("SELECT '''; --' AS x; -- done\n", "sql", "-f", "-"));
  }

  @Test void nothingToRun() {
    assertOk("", run("sql", " -- nothing\n;"));
  }

  @Test void parseError() {
    final Run run = run("sql", "SELECT * FORM t");
    assertEquals(1, run.status());
    assertEquals("", run.out());
    assertEquals("Error: parse failed: Encountered \"t\" at line 1, column 15. Was expecting one of:"
        + " <EOF>, \"EXCEPT\", \"FETCH\", \"FROM\", \"INTERSECT\", \"LIMIT\", \"OFFSET\","
        + " \"ORDER\", \"MINUS\", \"UNION\", \"WITHIN\", \"SKYLINE\", \",\"\n", run.err());
  }

  @Test void parseErrorPositionIsInTheScript() {
    final Run run = run("sql", "SELECT 1;\n\n  SELECT * FORM t");
    assertEquals(1, run.status());
    assertEquals("EXPR$0\n1\n", run.out());
    assertTrue(run.err().startsWith("Error: parse failed: Encountered \"t\" at line 3, column 17."),
        run.err());
  }

  @Test void validationError() {
    final Run run = run("sql", "SELECT * FROM nosuch");
    assertEquals(new Run(1, "",
        "Error: From line 1, column 15 to line 1, column 20: Object 'nosuch' not found\n"), run);
  }

  @Test void storeError() {
    final Run run = run("sql",
        "CREATE TABLE t (id INT PRIMARY KEY); INSERT INTO t VALUES 1; INSERT INTO t VALUES 1");
    assertEquals(1, run.status());
    assertTrue(run.err().startsWith(
        "Error: integrity constraint violation: unique constraint or index violation"), run.err());
  }

  @Test void runtimeError() {
    final Run run = run("sql", "SELECT CAST(x AS INTEGER) FROM (VALUES 'abc') AS t(x)");
    assertEquals(1, run.status());
    assertEquals("Error: invalid number: For input string: \"abc\"\n", run.err());
  }

  @Test void badStore() {
    assertEquals(new Run(1, "", "Error: bad db property: in-memory store name must be letters, digits, '_', '.'"
        + " or '-', was 'a b'\n"), run("sql", "--db", "mem:a b", "SELECT 1"));
  }

  @Test void usageErrors(@TempDir Path dir) {
    assertUsageError("Error: missing command\nRun 'mnestic --help' for usage.\n", run());
    assertUsageError("Error: unknown command 'query'\nRun 'mnestic --help' for usage.\n",
        run("query"));
    assertUsageError("Error: unknown option '--frob'\nRun 'mnestic sql --help' for usage.\n",
        run("sql", "--frob", "SELECT 1"));
    assertUsageError("Error: missing query (or -f FILE)\nRun 'mnestic sql --help' for usage.\n",
        run("sql"));
    assertUsageError("Error: option '--db' needs a value\nRun 'mnestic sql --help' for usage.\n",
        run("sql", "SELECT 1", "--db"));
    assertUsageError("Error: unknown format 'xml'; use table, json or csv\n"
        + "Run 'mnestic sql --help' for usage.\n", run("sql", "--format", "xml", "SELECT 1"));
    assertUsageError("Error: cannot read '" + dir.resolve("none.sql") + "': no such file\n"
        + "Run 'mnestic sql --help' for usage.\n",
        run("sql", "-f", dir.resolve("none.sql").toString()));
    assertUsageError("Error: give either a query or -f FILE, not both\n"
        + "Run 'mnestic sql --help' for usage.\n", run("sql", "-f", "-", "SELECT 1"));
    assertUsageError("Error: expected one query, got 2 arguments (quote the query)\n"
        + "Run 'mnestic sql --help' for usage.\n", run("sql", "SELECT", "1"));
    assertUsageError("Error: --user and --password go together; give both or neither\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--user", "ana"));
    assertUsageError("Error: --port must be a whole number, was 'http'\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--port", "http"));
    assertUsageError("Error: port must be 0 to 65535, was 70000\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--port", "70000"));
    assertUsageError("Error: --idle-timeout must be a positive number of seconds, was 0\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--idle-timeout", "0"));
    assertUsageError("Error: host 0.0.0.0 is not a loopback address: serving other machines"
        + " needs authentication (credentials, mnestic serve --user and --password)\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--host", "0.0.0.0"));
    assertUsageError("Error: --tls-cert and --tls-key go together; give both or neither\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--tls-cert", "c.pem"));
    assertUsageError("Error: --max-statements must be positive, was 0\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--max-statements", "0"));
    assertUsageError("Error: --statement-timeout must be a whole number, was '1s'\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--statement-timeout", "1s"));
    assertUsageError("Error: --statement-memory must be a whole number of bytes, was '1G'\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "--statement-memory", "1G"));
    assertUsageError("Error: unexpected argument 'now'\n"
        + "Run 'mnestic serve --help' for usage.\n", run("serve", "now"));
  }

  private static void assertUsageError(String expectedErr, Run run) {
    assertEquals(new Run(2, "", expectedErr), run);
  }

  @Test void help() {
    assertOk(Main.USAGE, run("--help"));
    assertOk(Main.USAGE, run("-h"));
    assertOk(SqlCommand.USAGE, run("sql", "--help"));
    assertOk(SqlCommand.USAGE, run("sql", "--format", "json", "-h"));
    assertOk(ServeCommand.USAGE, run("serve", "--help"));
    assertTrue(SqlCommand.USAGE.startsWith("Usage: mnestic sql"));
    // Every command Main runs is listed, and answers its own --help.
    for (String command : List.of("sql", "run", "import", "serve", "plan", "follow")) {
      assertTrue(Main.USAGE.contains("\n  " + command + " "), command);
      final Run help = run(command, "--help");
      assertEquals(0, help.status(), command);
      assertTrue(help.out().toLowerCase().startsWith("usage: mnestic " + command), help.out());
    }
  }

  @Test void version() {
    assertOk("mnestic 0.1.0\n", run("--version"));
    assertOk("mnestic 0.1.0\n", run("-V"));
  }

  @Test void runsADatalogScriptOverTheStore(@TempDir Path dir) throws Exception {
    final String db = dir.resolve("store").toString();
    assertEquals(0, run("sql", "--db", db, "CREATE TABLE edge (a INT, b INT);"
        + " INSERT INTO edge VALUES (1, 2), (2, 3), (3, 4)").status());
    final Path script = dir.resolve("reach.cozo");
    Files.writeString(script, "reach[a, b] := *edge[a, b]\n"
        + "reach[a, c] := reach[a, b], *edge[b, c]\n?[a, b] := reach[a, b], a == 1\n");
    assertEquals(new Run(0, "a    b\n1    2\n1    3\n1    4\n", ""),
        run("run", "--db", db, script.toString()));
    assertEquals(new Run(0, "{\"headers\":[\"x\"],\"rows\":[[1.5],[\"a\"]]}\n", ""),
        runWithInput("?[x] <- [['a'], [1.5]]", "run", "--format", "json", "-"));
    final Run bad = runWithInput("?[x] := x = 1,\n  y > ", "run", "-");
    assertEquals(1, bad.status());
    assertEquals("parser::pest\n\n  × expected an expression, found end of input\n"
        + "   ╭─[2:7]\n 2 │   y > \n   ·       ▲\n   ╰────\n", bad.err());
  }

  /**
   * A script ending in {@code %return a, b} prints both results, each as SQL scripts' result
   * sets are printed (a blank line between tables, a JSON object a line), in CozoDB's order
   * ({@code next} after the first).
   */
  @Test void runPrintsEveryResultOfAReturn() {
    final String script = "{?[x] <- [[1], [2]]} as _a\n{?[y, z] <- [['p', 3]]} as _b\n"
        + "%return _a, _b\n";
    assertOk("x\n1\n2\n\ny    z\np    3\n", runWithInput(script, "run", "-"));
    assertOk("{\"headers\":[\"x\"],\"rows\":[[1],[2]]}\n"
        + "{\"headers\":[\"y\",\"z\"],\"rows\":[[\"p\",3]]}\n",
        runWithInput(script, "run", "--format", "json", "-"));
  }

  /**
   * {@code run} prints values as CozoDB 0.7.6 does: the scripts and rows are the recorded
   * conformance corpus's ({@code datalog-frontend/src/test/resources/conformance/}) cases named
   * below, whose JSON is CozoDB's without its {@code "next"} and {@code "ok"}.
   */
  @Test void runPrintsValuesAsCozoDbDoes(@TempDir Path dir) {
    // functions: bytes-decode-encode
    assertOk("{\"headers\":[\"a\",\"b\",\"c\"],\"rows\":[[\"AQI=\",\"/+8=\",\"\"]]}\n",
        runWithInput("?[a, b, c] <- [[decode_base64('AQI='), encode_base64(decode_base64('/+8=')),"
            + " decode_base64('')]]", "run", "--format", "json", "-"));
    // functions: div-by-zero
    final String divByZero = "?[a, b, c, d, e] <- [[1 / 0, -1 / 0, 0 / 0, 1.0 / -0.0, 0.0 / 0.0]]";
    assertOk("{\"headers\":[\"a\",\"b\",\"c\",\"d\",\"e\"],"
        + "\"rows\":[[\"INFINITY\",\"NEGATIVE_INFINITY\",null,\"NEGATIVE_INFINITY\",null]]}\n",
        runWithInput(divByZero, "run", "--format", "json", "-"));
    // functions: variance-std-dev (one value: no variance)
    final String variance = "p[k, v] <- [['a', 1], ['a', 2], ['a', 4], ['b', 3]]\n"
        + "?[k, variance(v), std_dev(v)] := p[k, v]";
    assertOk("{\"headers\":[\"k\",\"variance(v)\",\"std_dev(v)\"],"
        + "\"rows\":[[\"a\",2.333333333333334,1.5275252316519468],[\"b\",null,null]]}\n",
        runWithInput(variance, "run", "--format", "json", "-"));
    // core: unicode-literals; functions: chars-slice-string (a list)
    assertOk("{\"headers\":[\"a\",\"b\"],\"rows\":[[\"h\u00e9llo \u65e5\u672c\u8a9e \ud83d\ude00\",11]]}\n",
        runWithInput("?[a, b] := a = 'h\u00e9llo \u65e5\u672c\u8a9e \ud83d\ude00', b = length(a)",
            "run", "--format", "json", "-"));
    assertOk("{\"headers\":[\"a\",\"b\",\"c\"],"
        + "\"rows\":[[[\"a\",\"\ud83d\ude00\",\"b\"],\"\u00e9l\",\"b\"]]}\n",
        runWithInput("?[a, b, c] <- [[chars('a\ud83d\ude00b'), slice_string('h\u00e9llo', 1, 3),"
            + " slice_string('ab', 1, 9)]]", "run", "--format", "json", "-"));
    // writes: json-as-key (a Json value is its document, not a string of it)
    final String db = dir.resolve("store").toString();
    assertEquals(0, runWithInput(":create t {j: Json}", "run", "--db", db, "-").status());
    final String jsonAsKey = "{?[j] <- [[json_object('x', 1)], [[1]], ['a']] :put t {j}}"
        + " {?[j, d] := *t[j], d = dump_json(j)}";
    assertOk("{\"headers\":[\"j\",\"d\"],"
        + "\"rows\":[[\"a\",\"\\\"a\\\"\"],[[1],\"[1]\"],[{\"x\":1},\"{\\\"x\\\":1}\"]]}\n",
        runWithInput(jsonAsKey, "run", "--db", db, "--format", "json", "-"));
    // A table or CSV cell: a string its text, any other value its CozoDB JSON, without the
    // quotes of Bytes and infinities (a Json string keeps them).
    assertOk("j          d\n\"a\"        \"a\"\n[1]        [1]\n{\"x\":1}    {\"x\":1}\n",
        runWithInput("?[j, d] := *t[j], d = dump_json(j)", "run", "--db", db, "-"));
    assertOk("a,b,c,d,e\nINFINITY,NEGATIVE_INFINITY,null,NEGATIVE_INFINITY,null\n",
        runWithInput(divByZero, "run", "--format", "csv", "-"));
    assertOk("a,b\nAQI=,\"[\"\"x\"\",1]\"\n",
        runWithInput("?[a, b] <- [[decode_base64('AQI='), ['x', 1]]]", "run", "--format", "csv", "-"));
  }

  @Test void bindsParamsFromTheCommandLine() {
    assertEquals(new Run(0, "{\"headers\":[\"a\",\"b\",\"c\"],\"rows\":[[3,\"x!\",[1,2.5]]]}\n", ""),
        runWithInput("?[a, b, c] := a = $n + 1, b = $s ++ '!', c = $l", "run", "--format", "json",
            "--param", "n=2", "--param", "s=\"x\"", "--param=l=[1, 2.5]", "-"));
    final Run missing = runWithInput("?[a] := a = $n + $m", "run", "--param", "n=1", "-");
    assertEquals(new Run(1, "", "Error: the script uses $m, which no --param m=JSON gives\n"), missing);
    assertUsageError("Error: --param takes NAME=JSON, got 'n'\n"
        + "Run 'mnestic run --help' for usage.\n", runWithInput("?[a] := a = 1", "run", "--param", "n", "-"));
    final Run badJson = runWithInput("?[a] := a = 1", "run", "--param", "n={", "-");
    assertEquals(2, badJson.status());
    assertTrue(badJson.err().startsWith("Error: --param n: not valid JSON"), badJson.err());
  }

  @Test void importsRelationJson(@TempDir Path dir) throws Exception {
    final String db = dir.resolve("store").toString();
    assertEquals(0, runWithInput(":create r {k: Int => v: String}", "run", "--db", db, "-").status());
    final Path json = dir.resolve("r.json");
    Files.writeString(json, "{\"r\": {\"headers\": [\"v\", \"k\"], \"rows\": [[\"a\", 1], [\"b\", 2]]}}");
    assertEquals(new Run(0, "", ""), run("import", "--db", db, json.toString()));
    assertEquals(new Run(0, "k    v\n1    a\n2    b\n", ""),
        runWithInput("?[k, v] := *r[k, v]", "run", "--db", db, "-"));
    final Run missing = runWithInput("{\"nope\": {\"headers\": [\"k\"], \"rows\": [[1]]}}",
        "import", "--db", db, "-");
    assertEquals(1, missing.status());
    assertTrue(missing.err().contains("Cannot find requested stored relation 'nope'"), missing.err());
  }
}
