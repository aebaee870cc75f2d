"""verl custom reward function backed by `cove serve`'s `/reward` endpoint (Python standard library only).

verl config:
    custom_reward_function.path=examples/verl_compute_score.py
    custom_reward_function.name=compute_score
with `COVE_URL` (default http://127.0.0.1:8787) and, if the service has a token, `COVE_TOKEN` in the
environment of the reward workers.

Each row's `reward_model.ground_truth` is the cove task id (or a JSON text {"task_id": ...}). The
conversation is taken from `extra_info["messages"]` (OpenAI chat messages, e.g. kept by a custom agent
loop) when present; otherwise `solution_str` is read as ChatML text with Hermes tool calls, which needs
the special tokens kept when decoding. The service replays the conversation's tool calls on a fresh copy
of the task's database and applies the task's evaluator (CoVe's score for tasks made by cove, tau2's
reward for tau2 tasks); a conversation whose user never stopped scores 0.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cove_client import CoveClient  # noqa: E402

_client = None


def _task_id(ground_truth):
    text = str(ground_truth).strip()
    if text.startswith("{"):
        return str(json.loads(text)["task_id"])
    return text


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's reward-function signature; returns {"score": float, ...} (verl logs the other keys)."""
    global _client
    if _client is None:
        _client = CoveClient()
    task_id = _task_id(ground_truth)
    messages = (extra_info or {}).get("messages")
    if messages:
        answer = _client.reward_for(task_id, list(messages))
        report = answer.get("report", {})
        reward = answer.get("reward")
        return {
            "score": float(reward or 0.0),
            "not_evaluated": 1.0 if reward is None else 0.0,
            "unreadable": 0.0,
            "tool_output_differences": float(len(report.get("tool_output_differences", []))),
        }
    answer = _client.reward_for_text(task_id, solution_str)
    return {
        "score": float(answer["reward"]),
        "not_evaluated": float(answer["not_evaluated"]),
        "unreadable": float(answer["unreadable"]),
        "tool_output_differences": 0.0,
    }
