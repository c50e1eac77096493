"""What a shard file of `reversi train` says about itself (crates/train/src/shard.rs):
its header, and how many positions it holds. The Rust program checks the rest when merging."""

import struct

MAGIC = b"RVSHARD1"
RECORD = 18


class NotAShardFile(ValueError):
    """The bytes are not a whole shard file."""


def describe(data: bytes, name: str = "shard file"):
    """The header's fields (target, job, shard, units) and the number of positions."""
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + 12:
        raise NotAShardFile(f"{name} is not a shard file")
    (header_len,) = struct.unpack_from("<I", data, len(MAGIC))
    at = len(MAGIC) + 4
    try:
        header = data[at : at + header_len].decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotAShardFile(f"{name}: the header is not text") from e
    fields = dict(line.split("=", 1) for line in header.splitlines() if "=" in line)
    at += header_len
    if at + 4 > len(data):
        raise NotAShardFile(f"{name} is cut short")
    (units,) = struct.unpack_from("<I", data, at)
    at += 4
    table = data[at : at + 8 * units]
    if len(table) < 8 * units:
        raise NotAShardFile(f"{name} is cut short")
    positions = sum(struct.unpack_from("<I", table, 8 * i + 4)[0] for i in range(units))
    expected = at + 8 * units + RECORD * positions + 4
    if expected != len(data):
        raise NotAShardFile(f"{name} is {len(data)} bytes, its table says {expected}")
    return fields, positions
