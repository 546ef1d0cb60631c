package dev.mnestic.jdbc;

import org.apache.calcite.avatica.DriverVersion;

/** mnestic's name and version, as the driver and the server report them. */
final class MnesticVersion {
  static final String NAME = "mnestic";
  static final String VERSION = "0.1.0";

  private MnesticVersion() {
  }

  static DriverVersion driverVersion() {
    return new DriverVersion("mnestic JDBC driver", VERSION, NAME, VERSION,
        true, 0, 1, 0, 1);
  }
}
