#!/usr/bin/env python3
"""Writes extra_patterns.csv: one-warp access patterns the calibration file
does not have (random offsets of every width, partial warps, lane pairs that
share addresses, sparse lanes), to measure on a GPU with
common/gpu_probe/measure.sh. Deterministic (fixed seed)."""
import random

rng = random.Random(20261129)
rows = []


def add(name, width, op, offsets):
    text = " ".join(str(o) for o in offsets)
    rows.append(f"{name}_{op},{width},{op},{text}")


for i in range(40):
    width = [1, 2, 4, 8, 16][i % 5]
    for op in ("ld", "st"):
        spread = [4, 16, 64, 256][i % 4]
        offs = [rng.randrange(spread) * width for _ in range(32)]
        offs = [o if rng.random() > 0.2 else -1 for o in offs]
        add(f"x_random{i}_w{width}", width, op, offs)
# 8- and 16-byte loads where lane pairs share addresses (pair-merge) with conflicts
for i in range(30):
    width = 8 if i % 2 == 0 else 16
    distance = 1 if i % 3 else 2
    offs = [0] * 32
    for t in range(32):
        if t & distance:
            continue
        offs[t] = rng.randrange(64) * width
        offs[t ^ distance] = offs[t]
    if i % 4 == 0:
        offs[rng.randrange(32)] = -1
    for op in ("ld", "st"):
        add(f"x_pairs{i}_d{distance}_w{width}", width, op, offs)
# sparse lanes: few active lanes, partners mostly inactive
for i in range(30):
    width = [4, 8, 16][i % 3]
    active = rng.sample(range(32), rng.randrange(1, 6))
    offs = [-1] * 32
    for t in active:
        offs[t] = rng.randrange(128) * width
    for op in ("ld", "st"):
        add(f"x_sparse{i}_w{width}", width, op, offs)
# strides with a base, every width
for width in (1, 2, 4, 8, 16):
    for stride in (1, 2, 3, 4, 6, 8, 9, 16, 17):
        base = rng.randrange(8) * width
        offs = [base + t * stride * width for t in range(32)]
        if max(offs) + width > 48 * 1024:
            continue
        for op in ("ld", "st"):
            add(f"x_stride{stride}_base{base}_w{width}", width, op, offs)

with open("extra_patterns.csv", "w") as f:
    f.write("name,width_bytes,op,lane_byte_offsets\n")
    f.write("\n".join(rows) + "\n")
print(f"wrote {len(rows)} patterns to extra_patterns.csv")
