"""Writes an RL dataset (JSON lines, one row per task and rollout seed) from a running `cove serve`.

    python3 examples/make_rl_dataset.py --rollouts 16 --out cove_rl.jsonl
    # then, with pandas: pandas.read_json("cove_rl.jsonl", lines=True).to_parquet("cove_rl.parquet")

Each row has verl's fields: `prompt` (a placeholder: the CoveAgentLoop builds the real prompt from the
episode), `agent_name: cove_agent`, `reward_model.ground_truth` = the task id (for verl_compute_score.py)
and `extra_info` = {task_id, seed}. Standard library only.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cove_client import CoveClient  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rollouts", type=int, default=1, help="rows (seeds) per task, e.g. 16 for GRPO")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    client = CoveClient()
    with open(args.out, "w", encoding="utf-8") as out:
        for task in client.tasks():
            for seed in range(args.rollouts):
                row = {
                    "data_source": f"cove/{task['evaluator']}",
                    "agent_name": "cove_agent",
                    "prompt": [{"role": "user", "content": f"cove task {task['task_id']}"}],
                    "ability": "tool_use",
                    "reward_model": {"style": "rule", "ground_truth": task["task_id"]},
                    "extra_info": {"task_id": task["task_id"], "seed": seed, "index": task["index"]},
                }
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
