"""Runs the `reversi` program's batch commands on a Ray cluster, one task per shard.

The heavy training commands split into shards (`--shard K/N`) whose files `reversi train
merge` joins into the bytes one machine would write; this package fans the shards out as
Ray tasks, retries the failed ones, reports progress and gathers the files on the driver.
"""
