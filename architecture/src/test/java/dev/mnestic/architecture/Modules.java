package dev.mnestic.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

import java.net.URI;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Maven module a class comes from, read from where its class file was found: a
 * module's {@code target/classes} folder within the reactor, or its jar
 * {@code mnestic-MODULE-VERSION.jar} from a repository. A module is so the unit the rules
 * speak of, whatever packages it holds.
 */
final class Modules {
  /** {@code .../MODULE/target/classes/...} or {@code .../mnestic-MODULE-0.1.0-SNAPSHOT.jar!/...}. */
  private static final Pattern MODULE =
      Pattern.compile("/(?:([a-z-]+)/target/classes/|mnestic-([a-z-]+)-\\d[^/]*\\.jar!/)");

  private Modules() {}

  /** The module a class file at {@code uri} belongs to; empty for libraries and the JDK. */
  static Optional<String> of(URI uri) {
    Matcher m = MODULE.matcher(uri.toString());
    if (!m.find()) {
      return Optional.empty();
    }
    return Optional.of(m.group(1) != null ? m.group(1) : m.group(2));
  }

  /** The classes of module {@code name}. */
  static DescribedPredicate<JavaClass> module(String name) {
    return DescribedPredicate.describe(
        "in module " + name,
        // an array (an enum's values()) is in the module of its element class
        c -> (c.isArray() ? c.getBaseComponentType() : c).getSource()
            .flatMap(s -> of(s.getUri())).filter(name::equals).isPresent());
  }

  /**
   * Imports the class files of mnestic's modules only (main code, not tests: neither a module's
   * {@code target/test-classes} nor its test-jar, {@code mnestic-MODULE-VERSION-tests.jar},
   * which bench reads jdbc-driver's test helpers from).
   */
  public static final class MainCode implements ImportOption {
    @Override
    public boolean includes(Location location) {
      return !location.contains("/test-classes/") && !location.contains("-tests.jar!/")
          && of(location.asURI()).isPresent();
    }
  }
}
