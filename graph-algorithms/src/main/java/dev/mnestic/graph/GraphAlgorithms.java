package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/** CozoDB's graph algorithms, the fixed rules of its {@code graph-algo} feature. */
public final class GraphAlgorithms {
  private GraphAlgorithms() {}

  /**
   * The graph algorithms by CozoDB's names (its {@code DEFAULT_FIXED_RULES}, aliases
   * included), in name order.
   */
  public static final Map<String, FixedRule> BUILT_IN = builtIn();

  private static Map<String, FixedRule> builtIn() {
    Map<String, FixedRule> rules = new TreeMap<>();
    rules.put("ClusteringCoefficients", new ClusteringCoefficients());
    rules.put("DegreeCentrality", new DegreeCentrality());
    rules.put("ClosenessCentrality", new ClosenessCentrality());
    rules.put("BetweennessCentrality", new BetweennessCentrality());
    FixedRule dfs = new Search(false);
    rules.put("DepthFirstSearch", dfs);
    rules.put("DFS", dfs);
    FixedRule bfs = new Search(true);
    rules.put("BreadthFirstSearch", bfs);
    rules.put("BFS", bfs);
    rules.put("ShortestPathBFS", new ShortestPathBfs());
    rules.put("ShortestPathDijkstra", new ShortestPathDijkstra());
    rules.put("ShortestPathAStar", new ShortestPathAStar());
    rules.put("KShortestPathYen", new KShortestPathYen());
    rules.put("MinimumSpanningTreePrim", new MinimumSpanningTreePrim());
    rules.put("MinimumSpanningForestKruskal", new MinimumSpanningForestKruskal());
    rules.put("TopSort", new TopSort());
    rules.put("ConnectedComponents", new ConnectedComponents(false));
    FixedRule scc = new ConnectedComponents(true);
    rules.put("StronglyConnectedComponents", scc);
    rules.put("SCC", scc);
    rules.put("PageRank", new PageRank());
    rules.put("CommunityDetectionLouvain", new CommunityDetectionLouvain());
    rules.put("LabelPropagation", new LabelPropagation(ThreadLocalRandom::current));
    rules.put("RandomWalk", new RandomWalk(ThreadLocalRandom::current));
    return Collections.unmodifiableMap(rules);
  }
}
