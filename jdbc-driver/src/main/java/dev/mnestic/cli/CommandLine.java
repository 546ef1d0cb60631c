package dev.mnestic.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The options and operands of one command.
 *
 * <p>An option is {@code -x} or {@code --name}; one that takes a value reads
 * it from the next argument or after {@code =} ({@code --format=json}).
 * Options and operands may come in any order; {@code --} ends the options.
 * An argument that does not look like an option ({@code -}, {@code -- note},
 * a query) is an operand.
 */
final class CommandLine {
  private static final Pattern OPTION = Pattern.compile("(-[A-Za-z]|--[A-Za-z][A-Za-z0-9-]*)(=.*)?",
      Pattern.DOTALL);

  private final Map<String, List<String>> options = new HashMap<>();
  private final List<String> operands = new ArrayList<>();

  private CommandLine() {
  }

  /** Whether {@code args} ask for help ({@code -h} or {@code --help} before any {@code --}). */
  static boolean wantsHelp(List<String> args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        return false;
      }
      if (arg.equals("-h") || arg.equals("--help")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Parses {@code args}.
   *
   * @param names every spelling of every option, mapped to the option's name
   *     ({@code "-f" -> "file"}, {@code "--file" -> "file"})
   * @param valued the names of the options that take a value
   */
  static CommandLine parse(List<String> args, Map<String, String> names, Set<String> valued)
      throws UsageException {
    return parse(args, names, valued, Set.of());
  }

  /**
   * Parses {@code args}; the options named in {@code repeatable} may be given
   * more than once ({@link #values}), the others at most once.
   */
  static CommandLine parse(List<String> args, Map<String, String> names, Set<String> valued,
      Set<String> repeatable) throws UsageException {
    final CommandLine commandLine = new CommandLine();
    for (int i = 0; i < args.size(); i++) {
      final String arg = args.get(i);
      final Matcher matcher = OPTION.matcher(arg);
      if (arg.equals("--")) {
        commandLine.operands.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (!matcher.matches()) {
        commandLine.operands.add(arg);
        continue;
      }
      final String spelling = matcher.group(1);
      final String name = names.get(spelling);
      if (name == null) {
        throw new UsageException("unknown option '" + spelling + "'");
      }
      final String value;
      if (!valued.contains(name)) {
        if (matcher.group(2) != null) {
          throw new UsageException("option '" + spelling + "' takes no value");
        }
        value = "";
      } else if (matcher.group(2) != null) {
        value = matcher.group(2).substring(1);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new UsageException("option '" + spelling + "' needs a value");
      }
      final List<String> values = commandLine.options.computeIfAbsent(name, k -> new ArrayList<>());
      if (!values.isEmpty() && !repeatable.contains(name)) {
        throw new UsageException("option '" + spelling + "' given twice");
      }
      values.add(value);
    }
    return commandLine;
  }

  /** The value of option {@code name}, or null if absent. */
  String option(String name) {
    final List<String> values = options.get(name);
    return values == null ? null : values.get(0);
  }

  /** Every value of option {@code name}, in order; empty if absent. */
  List<String> values(String name) {
    return options.getOrDefault(name, List.of());
  }

  /** The arguments that are not options, in order. */
  List<String> operands() {
    return operands;
  }
}
