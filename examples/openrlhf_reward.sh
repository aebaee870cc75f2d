#!/usr/bin/env bash
# OpenRLHF with cove's reward endpoint as its remote reward model. Start the service first:
#   npx cove serve --tasks tasks.json --port 8787
# The dataset's label column holds the cove task id (or a JSON text {"task_id": ...}); OpenRLHF sends
# {"query": [decoded prompt + response, special tokens kept], "prompts": [...], "labels": [...]} and reads
# {"rewards", "scores", "extra_logs"}. The query must be in the ChatML template with Hermes tool calls
# (Qwen-family models); cove replays its tool calls and applies the task's evaluator.
# Flag names of recent OpenRLHF releases; older ones spell them --remote_rm_url and --label_key.
set -euo pipefail
COVE_URL="${COVE_URL:-http://127.0.0.1:8787}"
python -m openrlhf.cli.train_ppo_ray \
  --reward.remote_url "${COVE_URL}/openrlhf/reward" \
  --data.label_key task_id \
  "$@"
