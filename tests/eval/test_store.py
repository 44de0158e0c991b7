"""The episodes file: a gzip stream flushed after every record, read back whatever point a
write was cut at, repaired on reopening, and an older run's plain file still resumed."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from antrap_gym.eval.store import (
    EPISODES_FILE,
    PLAIN_EPISODES_FILE,
    EpisodeStore,
    episodes_file,
    load_records,
)


def _record(i: int, rng: random.Random) -> dict:
    return {"id": f"oracle|T{i}|0|clean|0", "agent": "oracle", "task": f"T{i}", "variant": 0,
            "setting": "clean", "success": 1.0, "steps": i,
            "trajectory": [{"step": k, "action": {"x": rng.randrange(1080)}}
                           for k in range(rng.randrange(1, 30))]}


def _write(folder: Path, n: int) -> tuple[list[dict], bytes]:
    rng = random.Random(0)
    records = [_record(i, rng) for i in range(n)]
    store = EpisodeStore(folder / EPISODES_FILE)
    for r in records:
        store.append(r)
    data = (folder / EPISODES_FILE).read_bytes()  # as a kill would leave it: no gzip trailer
    store.close()
    return records, data


def test_a_file_cut_anywhere_reads_back_a_prefix_and_resumes(tmp_path):
    records, data = _write(tmp_path, 60)
    assert load_records(tmp_path) == records  # everything appended is readable before close
    assert gzip.decompress((tmp_path / EPISODES_FILE).read_bytes()).count(b"\n") == 60  # closed: plain gzip
    cut_dir = tmp_path / "cut"
    cut_dir.mkdir()
    before = -1
    for cut in range(0, len(data) + 1, max(1, len(data) // 97)):
        (cut_dir / EPISODES_FILE).write_bytes(data[:cut])
        got = load_records(cut_dir)
        assert got == records[:len(got)]  # the records whose bytes all made it, in order
        assert len(got) >= before
        before = len(got)
    assert before >= 58  # the last cuts lose at most the record being written
    # reopened, a cut file is repaired and takes new records after the ones it kept
    (cut_dir / EPISODES_FILE).write_bytes(data[:len(data) * 2 // 3])
    kept = load_records(cut_dir)
    store = EpisodeStore(cut_dir / EPISODES_FILE)
    assert store.records == kept
    store.append(records[-1])
    store.close()
    assert load_records(cut_dir) == [*kept, records[-1]]
    assert gzip.decompress((cut_dir / EPISODES_FILE).read_bytes()).count(b"\n") == len(kept) + 1


def test_bytes_that_are_no_deflate_data_end_the_file_where_they_start(tmp_path):
    records, data = _write(tmp_path, 40)
    for junk in (b'{"id": "random|Settings', bytes(range(256)) * 3, b"\x00" * 70000):
        (tmp_path / EPISODES_FILE).write_bytes(data + junk)
        assert load_records(tmp_path) == records
    store = EpisodeStore(tmp_path / EPISODES_FILE)  # repaired: the junk is gone
    store.close()
    assert gzip.decompress((tmp_path / EPISODES_FILE).read_bytes()).decode().splitlines() == [
        json.dumps(r, ensure_ascii=False) for r in records]


def test_an_older_runs_plain_file_is_read_and_resumed_as_it_is(tmp_path):
    rng = random.Random(1)
    records = [_record(i, rng) for i in range(5)]
    plain = tmp_path / PLAIN_EPISODES_FILE
    plain.write_text("".join(json.dumps(r) + "\n" for r in records[:4]) + '{"id": "torn')
    assert load_records(tmp_path) == records[:4]
    store = EpisodeStore(episodes_file(tmp_path))
    assert store.path == plain and store.records == records[:4]
    store.append(records[4])
    store.close()
    assert not (tmp_path / EPISODES_FILE).exists()
    assert [json.loads(x) for x in plain.read_text().splitlines()] == records
