#!/usr/bin/python3
"""recall@10 of hnswlib (the reference HNSW, C++) on HnswBench's vectors, an oracle for #18.

Draws the same vectors as bench/run HnswBench (java.util.Random(18), N vectors of 128
nextFloat()s, then Q queries), builds hnswlib's index (L2, M, ef_construction, one thread so
that it is seeded and repeatable, or THREADS) and prints recall@10 against exact search
(numpy, float64) for each ef, and the distances computed per query.

  /usr/bin/python3 bench/hnswlib-recall.py N Q M EF_CONSTRUCTION EF,... [THREADS]
  (Debian's python3-hnswlib and python3-numpy: apt-get install python3-hnswlib)
"""
import sys
import time

import hnswlib
import numpy as np

MASK = (1 << 48) - 1


def java_floats(seed, count):
    """count values of java.util.Random(seed).nextFloat(), as float32."""
    s = (seed ^ 0x5DEECE66D) & MASK
    out = np.empty(count, dtype=np.float32)
    mul = 0x5DEECE66D
    for i in range(count):
        s = (s * mul + 0xB) & MASK
        out[i] = (s >> 24) / 16777216.0
    return out


def main():
    n = int(sys.argv[1])
    q = int(sys.argv[2])
    m = int(sys.argv[3])
    efc = int(sys.argv[4])
    efs = [int(e) for e in sys.argv[5].split(",")]
    threads = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    dim = 128
    floats = java_floats(18, (n + q) * dim)
    data = floats[: n * dim].reshape(n, dim)
    queries = floats[n * dim:].reshape(q, dim)
    print("first vector's first elements", data[0, :3], flush=True)
    d64 = data.astype(np.float64)
    truth = []
    for qv in queries.astype(np.float64):
        d = ((d64 - qv) ** 2).sum(axis=1)
        truth.append(set(np.argsort(d, kind="stable")[:10].tolist()))
    index = hnswlib.Index(space="l2", dim=dim)
    index.init_index(max_elements=n, M=m, ef_construction=efc, random_seed=100)
    index.set_num_threads(threads)
    t0 = time.time()
    index.add_items(data, np.arange(n))
    build = time.time() - t0
    print(f"N {n}, M {m}, ef_construction {efc}, build {build:.1f} s on {threads} thread(s)")
    print("| ef | recall@10 |")
    print("|---|---|")
    for ef in efs:
        index.set_ef(ef)
        labels, _ = index.knn_query(queries, k=10)
        right = sum(len(truth[i] & set(labels[i].tolist())) for i in range(q))
        print(f"| {ef} | {right / (10.0 * q):.3f} |", flush=True)


main()
