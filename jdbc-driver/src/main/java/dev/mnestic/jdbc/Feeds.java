package dev.mnestic.jdbc;

import dev.mnestic.sql.StandingQueries;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The feeds of followed standing queries ({@code SELECT STREAM * FROM name}) being read, each by
 * its statement's cancel flag: how the server finds a statement's feed, to send a frame of the
 * rows ready instead of waiting for a full one.
 */
public final class Feeds {
  /** Weak: a statement dropped unclosed leaves nothing here. */
  private static final Map<AtomicBoolean, StandingQueries.Feed> FEEDS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private Feeds() {
  }

  /** The feed the statement with cancel flag {@code flag} reads now, or null. */
  public static StandingQueries.Feed of(AtomicBoolean flag) {
    return FEEDS.get(flag);
  }

  /** {@code feed} is read by the statement with cancel flag {@code flag}; its previous one ends. */
  static void put(AtomicBoolean flag, StandingQueries.Feed feed) {
    final StandingQueries.Feed before = FEEDS.put(flag, feed);
    if (before != null) {
      before.close();
    }
  }

  /** Ends {@code feed}, read by the statement with cancel flag {@code flag}. */
  static void close(AtomicBoolean flag, StandingQueries.Feed feed) {
    FEEDS.remove(flag, feed);
    feed.close();
  }

  /** Ends the feed of the statement with cancel flag {@code flag}, if any. */
  static void close(AtomicBoolean flag) {
    final StandingQueries.Feed feed = FEEDS.remove(flag);
    if (feed != null) {
      feed.close();
    }
  }
}
