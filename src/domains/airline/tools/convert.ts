import { ToolError } from '../../../core/errors.js';
import { type PyValue, pyTypeName } from '../../../core/py-value.js';
import { pyIter } from '../../../env/py-ops.js';
import { type ModelSpec, type Validated, validateModel } from './py-model.js';

/**
 * τ²'s `if all(isinstance(x, dict) for x in xs): xs = [Model(**x) for x in xs]`: a list of dicts becomes validated
 * models; anything else (a mixed list, a string, a non-empty dict, whose iteration yields keys) stays raw.
 * @throws {ToolError} `'int' object is not iterable` for non-iterables, or pydantic's error of the first bad dict.
 */
export function convertAll(
  value: PyValue,
  spec: ModelSpec,
): { readonly models: readonly Validated[] } | { readonly raw: PyValue; readonly items: readonly PyValue[] } {
  const items = pyIter(value);
  if (items.every((x) => x instanceof Map))
    return { models: items.map((x) => validateModel(spec, x as Map<string, PyValue>)) };
  return { raw: value, items };
}

/** Python's `AttributeError` for `item.<field>` on a raw (non-model) list element. */
export function noAttribute(item: PyValue, field: string): ToolError {
  return new ToolError(`'${pyTypeName(item)}' object has no attribute '${field}'`);
}
