"""A verl AgentLoop that plays cove episodes through `cove serve`, with cove's user simulator live in the loop.

Register it with an agent-loop config (examples/verl_agent_loop.yaml):
    actor_rollout_ref.rollout.agent.agent_loop_config_path=examples/verl_agent_loop.yaml
and give each dataset row `agent_name: cove_agent` and `extra_info: {"task_id": "...", "seed": 0}` (see
examples/make_rl_dataset.py). The service URL and token come from COVE_URL / COVE_TOKEN; COVE_USER picks the
user simulator of the episodes (`scripted`, or `openai:<model>` served by the service's --user-base-url).

Each rollout: POST /episodes -> the system prompt, tools, greeting and the user's first message become the
prompt; then, turn by turn, the policy's text is parsed for Hermes tool calls (<tool_call>{"name", "arguments"}
</tool_call>), sent as one assistant message to /step, and the service's answer (tool results, or the user's
reply) is appended with mask 0; when the user stops (or the turn/length budget is spent) the reward is
GET /episodes/{id}/reward (0 unless the episode ended by a user stop) and becomes `reward_score`, so verl skips
its reward function. Only the policy's own tokens have mask 1. Needs verl with the experimental agent loop
(`verl.experimental.agent_loop`); only the standard library otherwise.
"""

import asyncio
import json
import os
import re
import sys
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cove_client import CoveClient  # noqa: E402

_TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.S)
_THINK = re.compile(r"<think>.*?</think>", re.S)
_NAME = re.compile(r'"name"\s*:\s*"([^"]+)"')


def parse_hermes(text: str, turn: int) -> dict:
    """One assistant message (OpenAI shape) from the policy's decoded text with Hermes tool calls."""
    visible = _THINK.sub("", text)
    calls = []
    for i, block in enumerate(_TOOL_CALL.findall(visible)):
        try:
            value = json.loads(block)
            name, args = value["name"], value.get("arguments", {})
            arguments = args if isinstance(args, str) else json.dumps(args)
        except (ValueError, KeyError, TypeError):
            found = _NAME.search(block)
            if found is None:
                continue  # not a call at all: it stays out, as an environment would not run it
            name, arguments = found.group(1), block  # the service answers with its invalid-arguments error
        calls.append({"id": f"call_{turn}_{i}", "type": "function", "function": {"name": name, "arguments": arguments}})
    rest = _TOOL_CALL.sub("", visible).strip()
    message = {"role": "assistant", "content": rest if rest or not calls else None}
    if calls:
        message["tool_calls"] = calls
    return message


@register("cove_agent")
class CoveAgentLoop(AgentLoopBase):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rollout = self.config.actor_rollout_ref.rollout
        self.response_length = rollout.response_length
        self.max_turns = int(rollout.multi_turn.get("max_assistant_turns") or 50)
        self.client = CoveClient()
        self.user = os.environ.get("COVE_USER") or None

    async def _tokens(self, messages, tools=None, add_generation_prompt=True, continuation=False):
        """Token ids of messages in the chat template; a continuation drops the template's system prefix."""

        def encode(msgs):
            return self.tokenizer.apply_chat_template(
                msgs, tools=tools, add_generation_prompt=add_generation_prompt, tokenize=True
            )

        if not continuation:
            return await asyncio.to_thread(encode, messages)
        # the tokens of the new messages alone: render them after a fixed system message and cut that prefix
        anchor = [{"role": "system", "content": "x"}]
        prefix = await asyncio.to_thread(
            lambda: self.tokenizer.apply_chat_template(anchor, add_generation_prompt=False, tokenize=True)
        )
        full = await asyncio.to_thread(encode, anchor + list(messages))
        return full[len(prefix):]

    async def run(self, sampling_params: dict[str, Any], **kwargs) -> AgentLoopOutput:
        extra = kwargs.get("extra_info") or {}
        episode = await asyncio.to_thread(self.client.create, extra["task_id"], extra.get("seed"), self.user)
        episode_id = episode["episode_id"]
        request_id = uuid4().hex
        try:
            messages = [{"role": "system", "content": episode["system_prompt"]}] + episode["messages"]
            prompt_ids = await self._tokens(messages, tools=episode["tools"])
            response_ids, response_mask, logprobs = [], [], []
            done, turns = episode["done"], 0
            while not done and turns < self.max_turns and len(response_ids) < self.response_length:
                output = await self.server_manager.generate(
                    request_id=request_id, prompt_ids=prompt_ids + response_ids, sampling_params=sampling_params
                )
                ids = list(getattr(output, "token_ids", output))
                turn_logprobs = getattr(output, "log_probs", None)
                response_ids += ids
                response_mask += [1] * len(ids)
                logprobs += list(turn_logprobs) if turn_logprobs else [0.0] * len(ids)
                turns += 1
                text = self.tokenizer.decode(ids, skip_special_tokens=True)
                result = await asyncio.to_thread(self.client.step, episode_id, parse_hermes(text, turns))
                done = result["done"]
                if done or not result["messages"]:
                    break
                env_ids = await self._tokens(result["messages"], continuation=True)
                response_ids += env_ids
                response_mask += [0] * len(env_ids)
                logprobs += [0.0] * len(env_ids)
            reward = await asyncio.to_thread(self.client.reward, episode_id)
        finally:
            try:
                await asyncio.to_thread(self.client.delete, episode_id)
            except Exception:  # an expired episode is gone already
                pass
        n = self.response_length
        return AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids[:n],
            response_mask=response_mask[:n],
            response_logprobs=logprobs[:n] if any(logprobs) else None,
            reward_score=float(reward["reward"] or 0.0),
            num_turns=turns * 2 + 1,
            metrics={},
            extra_fields={"cove_episode_id": episode_id, "cove_done": reward["done"]},
        )
