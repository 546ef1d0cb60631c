"""NetworkX's answers for GraphAlgorithmsTest: reads a JSON list of cases on stdin, writes a
JSON list of answers on stdout, one per case. A case names its graph (edges [from, to, weight],
"directed", optional extra "nodes") and an "op"; node keys are JSON values, and in answers maps
are lists of [node, value] pairs. Infinite numbers are written as null."""
import json
import math
import sys

import networkx as nx


def graph(case, multi=False):
    directed = case.get("directed", True)
    if multi:
        g = nx.MultiDiGraph() if directed else nx.MultiGraph()
    else:
        g = nx.DiGraph() if directed else nx.Graph()
    g.add_nodes_from(case.get("nodes", []))
    for u, v, w in case["edges"]:
        g.add_edge(u, v, weight=w)
    return g


def finite(x):
    return None if x is None or math.isinf(x) else x


def answer(case):
    op = case["op"]
    g = graph(case)
    if op == "distances":  # every start's weighted distances to the nodes it reaches
        return [[s, list(nx.single_source_dijkstra_path_length(g, s, weight="weight").items())]
                for s in g.nodes]
    if op == "hops":  # every start's distances in edges
        return [[s, list(nx.single_source_shortest_path_length(g, s).items())] for s in g.nodes]
    if op == "shortest_path_counts":  # [start, target, number of shortest weighted paths]
        out = []
        for s in case["starts"]:
            for t in case["goals"]:
                if s != t and nx.has_path(g, s, t):
                    out.append([s, t, len(list(nx.all_shortest_paths(g, s, t, weight="weight")))])
        return out
    if op == "k_shortest":  # costs of the k shortest simple paths
        out = []
        for s, t in case["pairs"]:
            costs = []
            if s in g and t in g and nx.has_path(g, s, t):
                for p in nx.shortest_simple_paths(g, s, t, weight="weight"):
                    costs.append(nx.path_weight(g, p, "weight"))
                    if len(costs) == case["k"]:
                        break
            out.append([s, t, costs])
        return out
    if op == "components":
        parts = nx.strongly_connected_components(g) if g.is_directed() \
            else nx.connected_components(g)
        return [sorted(p, key=json.dumps) for p in parts]
    if op == "forest_weight":
        return nx.minimum_spanning_tree(g, weight="weight").size(weight="weight")
    if op == "tree_weight":  # the minimum spanning tree of the start's component
        c = nx.node_connected_component(g, case["start"])
        return nx.minimum_spanning_tree(g.subgraph(c), weight="weight").size(weight="weight")
    if op == "pagerank":
        return list(nx.pagerank(g, alpha=case["theta"], tol=1e-12, max_iter=10000, weight=None).items())
    if op == "clustering":
        c = nx.clustering(g)
        t = nx.triangles(g)
        return [[v, c[v], t[v], g.degree(v)] for v in g.nodes]
    if op == "degrees":
        m = graph(case, multi=True)
        return [[v, m.degree(v), m.out_degree(v), m.in_degree(v)] for v in m.nodes]
    if op == "closeness":  # CozoDB's formula over NetworkX's distances from each node
        n = g.number_of_nodes()
        out = []
        for s in g.nodes:
            d = nx.single_source_dijkstra_path_length(g, s, weight="weight")
            total = sum(d.values())
            r = len(d)
            out.append([s, finite(r * r / total / (n - 1)) if total > 0 else None])
        return out
    if op == "betweenness":
        return list(nx.betweenness_centrality(g, normalized=False, weight="weight").items())
    if op == "modularity":  # of the given partition, and of NetworkX's Louvain
        given = [set(p) for p in case["partition"]]
        nx_parts = nx.community.louvain_communities(g, weight="weight", seed=case["seed"])
        return [nx.community.modularity(g, given, weight="weight"),
                nx.community.modularity(g, nx_parts, weight="weight")]
    raise ValueError("unknown op " + op)


json.dump([answer(c) for c in json.load(sys.stdin)], sys.stdout)
