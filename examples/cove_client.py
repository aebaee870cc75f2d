"""A small client of `cove serve` (the RL episode service), Python standard library only.

    client = CoveClient("http://127.0.0.1:8787", token=None)
    ep = client.create("retail-s1-0", seed=1)          # {episode_id, system_prompt, tools, messages, done}
    out = client.step(ep["episode_id"], {"role": "assistant", "content": "How can I help?"})
    client.reward(ep["episode_id"])                     # {done, reward, report}
    client.delete(ep["episode_id"])

The base URL and token default to the environment variables COVE_URL and COVE_TOKEN.
"""

import json
import os
import urllib.error
import urllib.request


class CoveError(RuntimeError):
    """An answer of the service other than 2xx: `status` and the service's `error` text."""

    def __init__(self, status, message):
        super().__init__(f"cove serve answered {status}: {message}")
        self.status = status
        self.message = message


class CoveClient:
    def __init__(self, base_url=None, token=None, timeout_s=300.0):
        self.base_url = (base_url or os.environ.get("COVE_URL") or "http://127.0.0.1:8787").rstrip("/")
        self.token = token if token is not None else os.environ.get("COVE_TOKEN")
        self.timeout_s = timeout_s

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                message = json.loads(text).get("error", text)
            except ValueError:
                message = text
            raise CoveError(e.code, message) from None

    def tasks(self):
        return self.request("GET", "/tasks")["tasks"]

    def create(self, task_id, seed=None, user=None):
        body = {"task_id": task_id}
        if seed is not None:
            body["seed"] = seed
        if user is not None:
            body["user"] = user
        return self.request("POST", "/episodes", body)

    def step(self, episode_id, message):
        return self.request("POST", f"/episodes/{episode_id}/step", {"message": message})

    def reward(self, episode_id):
        return self.request("GET", f"/episodes/{episode_id}/reward")

    def delete(self, episode_id):
        return self.request("DELETE", f"/episodes/{episode_id}")

    def reward_for(self, task_id, messages):
        """The task's evaluator on a conversation produced elsewhere (OpenAI chat messages)."""
        return self.request("POST", "/reward", {"task_id": task_id, "messages": messages})

    def reward_for_text(self, task_id, text):
        """The same for a decoded ChatML text with Hermes tool calls (what OpenRLHF sends)."""
        answer = self.request("POST", "/openrlhf/reward", {"query": [text], "prompts": [""], "labels": [task_id]})
        logs = answer["extra_logs"]
        return {
            "reward": answer["rewards"][0],
            "unreadable": logs["unreadable"][0],
            "not_evaluated": logs["not_evaluated"][0],
        }
