/**
 * `cove_verl_dataset.py`, written beside a `verl` export: a subclass of verl's `MultiTurnSFTDataset` for
 * `data.custom_cls` that turns the JSON-string `tools` column back into a list of dicts, parses tool-call
 * `arguments` strings into dicts (for chat templates that need objects) and drops the null fields a Parquet
 * struct gives messages that lack them (so templates see the same keys the conversation had).
 */
export const VERL_DATASET_PY = `"""Dataset class for Parquet files written by \`cove export --format verl\`.

Use with verl's multi-turn SFT trainer:
    data.custom_cls.path=<this file> data.custom_cls.name=CoveMultiTurnSFTDataset

The export stores \`tools\` (and each tool call's \`arguments\`) as JSON strings, so that Arrow does not merge the
different keys of different tools into one struct type; this class turns them back into Python objects and drops
the null fields that Parquet structs give messages which did not have them.
"""

import json

from verl.utils.dataset.multiturn_sft_dataset import (
    MultiTurnSFTDataset,
    convert_nested_value_to_list_recursive,
)


def _clean_message(message):
    out = {key: value for key, value in message.items() if value is not None}
    for call in out.get("tool_calls") or []:
        function = call.get("function") or {}
        if isinstance(function.get("arguments"), str):
            function["arguments"] = json.loads(function["arguments"])
    return out


class CoveMultiTurnSFTDataset(MultiTurnSFTDataset):
    def _read_files_and_process(self):
        super()._read_files_and_process()
        if self.tools is not None:
            self.tools = [json.loads(t) if isinstance(t, str) else t for t in self.tools]

    def _build_messages(self, example):
        messages = convert_nested_value_to_list_recursive(list(super()._build_messages(example)))
        return [_clean_message(m) for m in messages]
`;
