package dev.mnestic.value;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Aggregations a host program registered on one engine, looked up before
 * the built-in ones ({@link Aggregators}) when a script is lowered
 * ({@link #resolve}). Registered names are plain identifiers
 * and never a built-in's or a reserved one's.
 *
 * <p>Immutable: registering makes a new set of registrations and leaves
 * this one as it was, so an engine's set is sealed when the engine is made,
 * a script sees the same set from its start to its end, and no engine's
 * registrations reach another's.
 *
 * <ul>
 *   <li>A bounded-meet aggregation by its dominance
 *       ({@link #withBoundedMeet}): per group the values no other value
 *       dominates, an {@link Antichain} capped at {@code maxSurvivors}.</li>
 *   <li>An aggregation by its combine ({@link #with}): a factory of
 *       one group's {@link Aggregators.Aggregator}. A meet one must be
 *       idempotent, commutative and associative (a provenance semiring's
 *       addition, say); it then merges as {@code meet(current, value)}, the
 *       aggregate of the two, and may run inside its own recursion.</li>
 * </ul>
 */
public final class HostAggregations {
  /** No registrations. */
  public static final HostAggregations NONE = new HostAggregations(Map.of(), Map.of(), Map.of());

  private final Map<String, BoundedMeet> boundedMeets;
  private final Map<String, Supplier<? extends Aggregators.Aggregator>> normal;
  private final Map<String, Aggregators.Meet> meets;

  private HostAggregations(Map<String, BoundedMeet> boundedMeets,
      Map<String, Supplier<? extends Aggregators.Aggregator>> normal,
      Map<String, Aggregators.Meet> meets) {
    this.boundedMeets = Map.copyOf(boundedMeets);
    this.normal = Map.copyOf(normal);
    this.meets = Map.copyOf(meets);
  }

  /**
   * These registrations and a bounded-meet aggregation: {@code dominates.test(a, b)} says
   * whether value {@code a} beats {@code b}, and must be a pure strict
   * partial order (irreflexive, transitive); more than {@code maxSurvivors}
   * survivors in a group is an error.
   */
  public HostAggregations withBoundedMeet(String name, BiPredicate<Object, Object> dominates,
      int maxSurvivors) {
    if (maxSurvivors <= 0) {
      throw new IllegalArgumentException("max_survivors must be positive, got " + maxSurvivors);
    }
    final Antichain.Order order = dominates::test;
    claim(name);
    final Map<String, BoundedMeet> boundedMeets = new HashMap<>(this.boundedMeets);
    boundedMeets.put(name, new BoundedMeet() {
      @Override public String name() {
        return name;
      }

      @Override public Survivors survivors() {
        return new Antichain(name, order, maxSurvivors);
      }
    });
    return new HostAggregations(boundedMeets, normal, meets);
  }

  /** These registrations and an aggregation by a factory of one group's aggregator; see the class comment. */
  public HostAggregations with(String name, boolean isMeet,
      Supplier<? extends Aggregators.Aggregator> factory) {
    claim(name);
    final Map<String, Supplier<? extends Aggregators.Aggregator>> normal =
        new HashMap<>(this.normal);
    normal.put(name, factory);
    final Map<String, Aggregators.Meet> meets = new HashMap<>(this.meets);
    if (isMeet) {
      meets.put(name, new Aggregators.Meet() {
        @Override public Object emptyMeet() {
          return factory.get().result();
        }

        @Override public boolean merge(Object[] current, int i, Object value) {
          final Aggregators.Aggregator meet = factory.get();
          meet.add(current[i]);
          meet.add(value);
          final Object now = meet.result();
          final boolean changed = !Values.equal(now, current[i]);
          current[i] = now;
          return changed;
        }
      });
    }
    return new HostAggregations(boundedMeets, normal, meets);
  }

  /** Checks that {@code name} may be registered here: an identifier, not yet an aggregation. */
  private void claim(String name) {
    if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("an aggregation's name is an identifier, got " + name);
    }
    if (Aggregators.isDefined(name) || isDefined(name)) {
      throw new IllegalArgumentException("aggregation '" + name + "' already exists");
    }
  }

  /** Whether {@code name} is an aggregation, registered or built in. */
  public boolean isDefined(String name) {
    return normal.containsKey(name) || boundedMeets.containsKey(name)
        || Aggregators.isDefined(name);
  }

  /** Whether {@code name} was registered here. */
  public boolean isRegistered(String name) {
    return normal.containsKey(name) || boundedMeets.containsKey(name);
  }

  /** Whether {@code name} may run inside its own recursion: a meet or bounded-meet one. */
  public boolean isMeet(String name) {
    return meets.containsKey(name) || isBoundedMeet(name) || Aggregators.isMeet(name);
  }

  public boolean isBoundedMeet(String name) {
    return boundedMeets.containsKey(name) || Aggregators.isBoundedMeet(name);
  }

  /**
   * A head's aggregations resolved against these registrations (registered
   * ones first, then built-in ones), once, for plans to carry to the runtime.
   *
   * @param specs per column, an aggregation's {@linkplain Aggregators#spec spec}, or null
   *     for a grouping key
   * @throws IllegalArgumentException for an aggregation neither registered nor built in
   */
  public HeadAggregation resolve(List<String> specs) {
    final boolean boundedMeetKind = boundedMeetKind(specs);
    final boolean meetKind = !boundedMeetKind && meetKind(specs);
    final boolean aggregated = specs.stream().anyMatch(s -> s != null);
    List<Supplier<? extends Aggregators.Aggregator>> factories = null;
    List<Aggregators.Meet> meets = null;
    BoundedMeet boundedMeet = null;
    if (boundedMeetKind) {
      final String spec = specs.get(specs.size() - 1);
      boundedMeet = boundedMeets.containsKey(spec) ? boundedMeets.get(spec)
          : Aggregators.boundedMeet(spec);
    } else if (meetKind) {
      meets = new ArrayList<>();
      for (String spec : specs) {
        meets.add(spec == null ? null
            : this.meets.containsKey(spec) ? this.meets.get(spec) : Aggregators.meet(spec));
      }
    } else if (aggregated) {
      factories = new ArrayList<>();
      for (String spec : specs) {
        factories.add(spec == null ? null
            : normal.containsKey(spec) ? normal.get(spec) : Aggregators.factory(spec));
      }
    }
    return new HeadAggregation(specs, meetKind, boundedMeetKind, orderBlind(specs), factories,
        meets, boundedMeet);
  }

  /** As {@link Aggregators#meetKind}, registered ones included. */
  public boolean meetKind(List<String> specs) {
    return Aggregators.meetKind(specs, s -> meets.containsKey(s) || Aggregators.isMeet(s));
  }

  /** As {@link Aggregators#boundedMeetKind}, registered ones included. */
  public boolean boundedMeetKind(List<String> specs) {
    return Aggregators.boundedMeetKind(specs, s -> boundedMeets.containsKey(s)
        || Aggregators.isBoundedMeet(s));
  }

  /**
   * As {@link Aggregators#orderBlind}: registered ones are never taken as order-blind, but
   * bounded-meet ones.
   */
  public boolean orderBlind(List<String> specs) {
    return specs.stream().allMatch(s -> s == null || boundedMeets.containsKey(s)
        || !isRegistered(s) && Aggregators.orderBlind(List.of(s)));
  }
}
