package dev.mnestic.graph;

import dev.mnestic.value.StopCheck;

/** Counts an algorithm's steps and lets its statement stop it every 4,096 of them. */
final class Steps {
  private final StopCheck stop;
  private int count;

  Steps(StopCheck stop) {
    this.stop = stop;
  }

  void tick() {
    if ((++count & 4095) == 0) {
      stop.check();
    }
  }
}
