import { ToolError } from '../../../core/errors.js';
import { type PyValue, pyTypeName } from '../../../core/py-value.js';
import { pydanticInputRepr, pyRepr } from '../../../env/py-ops.js';

/**
 * The pydantic 2 validation that τ²'s airline tools trigger by building models from raw arguments (`FlightInfo(**d)`,
 * `Passenger(**d)`, `Payment(**d)`, `Certificate(...)`, `Reservation(...)`), with pydantic 2.13's lax coercions
 * (`"2"` and `2.0` become the int `2`, ints become floats) and its `ValidationError` text: every failing field in
 * model order, `loc` dotted (`passengers.0.dob`), then the message, type, input value and type, and the docs URL.
 * Long `input_value`s are abbreviated more simply than pydantic does (the first line is always exact).
 */

const DOCS = 'https://errors.pydantic.dev/2.13/v/';

/** A field's type: the few pydantic types the airline models use. */
export type FieldType =
  | 'str'
  | 'int'
  | 'float'
  | { readonly literal: readonly string[] }
  | { readonly listOf: ModelSpec }
  /** A list whose value was already validated (the tool converted every element before). */
  | 'validated';

/** A pydantic model: its name and fields in declaration order. */
export interface ModelSpec {
  readonly name: string;
  readonly fields: readonly (readonly [string, FieldType])[];
}

/** One pydantic error line group. */
interface Issue {
  readonly loc: string;
  readonly message: string;
  readonly type: string;
  readonly input: PyValue | { readonly kwargs: ReadonlyMap<string, PyValue> };
}

/** A value validated by {@link validateModel}: str, bigint (int), number (float), or nested validated values. */
export type Validated = Readonly<Record<string, PyValue | readonly Readonly<Record<string, PyValue>>[]>>;

const INT_TEXT = /^[+-]?\d(_?\d)*(\.0*)?$/;
const FLOAT_TEXT =
  /^[+-]?((\d(_?\d)*)?\.?\d(_?\d)*|\d(_?\d)*\.)([eE][+-]?\d(_?\d)*)?$|^[+-]?(inf|infinity|nan)$/i;
const I64_MAX = 2 ** 63;

function literalMessage(options: readonly string[]): string {
  const quoted = options.map((o) => `'${o}'`);
  if (quoted.length === 1) return `Input should be ${quoted[0]}`;
  return `Input should be ${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** pydantic's lax `int`. */
function toInt(v: PyValue): bigint | Omit<Issue, 'loc' | 'input'> {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return { message: 'Input should be a finite number', type: 'finite_number' };
    if (!Number.isInteger(v)) {
      return {
        message: 'Input should be a valid integer, got a number with a fractional part',
        type: 'int_from_float',
      };
    }
    if (Math.abs(v) >= I64_MAX) {
      return {
        message: 'Unable to parse input string as an integer, exceeded maximum size',
        type: 'int_parsing_size',
      };
    }
    return BigInt(v);
  }
  if (typeof v === 'string') {
    const s = v.trim();
    if (INT_TEXT.test(s)) return BigInt(s.replace(/_/g, '').replace(/\.0*$/, ''));
    return {
      message: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
    };
  }
  return { message: 'Input should be a valid integer', type: 'int_type' };
}

/** pydantic's lax `float`. */
function toFloat(v: PyValue): number | Omit<Issue, 'loc' | 'input'> {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const s = v.trim().replace(/_/g, '');
    if (FLOAT_TEXT.test(v.trim())) {
      const lower = s.toLowerCase().replace(/^[+-]/, '');
      const sign = s.startsWith('-') ? -1 : 1;
      if (lower === 'nan') return Number.NaN;
      if (lower === 'inf' || lower === 'infinity') return sign * Number.POSITIVE_INFINITY;
      return Number(s);
    }
    return {
      message: 'Input should be a valid number, unable to parse string as a number',
      type: 'float_parsing',
    };
  }
  return { message: 'Input should be a valid number', type: 'float_type' };
}

function validateInto(
  spec: ModelSpec,
  values: ReadonlyMap<string, PyValue>,
  prefix: string,
  issues: Issue[],
): Record<string, PyValue | Readonly<Record<string, PyValue>>[]> {
  const out: Record<string, PyValue | Readonly<Record<string, PyValue>>[]> = {};
  for (const [field, type] of spec.fields) {
    const loc = `${prefix}${field}`;
    if (!values.has(field)) {
      issues.push({ loc, message: 'Field required', type: 'missing', input: { kwargs: values } });
      continue;
    }
    const v = values.get(field) as PyValue;
    if (type === 'validated') {
      out[field] = v;
    } else if (type === 'str') {
      if (typeof v === 'string') out[field] = v;
      else issues.push({ loc, message: 'Input should be a valid string', type: 'string_type', input: v });
    } else if (type === 'int' || type === 'float') {
      const r = type === 'int' ? toInt(v) : toFloat(v);
      if (typeof r === 'bigint' || typeof r === 'number') out[field] = r;
      else issues.push({ loc, ...r, input: v });
    } else if ('literal' in type) {
      if (typeof v === 'string' && type.literal.includes(v)) out[field] = v;
      else issues.push({ loc, message: literalMessage(type.literal), type: 'literal_error', input: v });
    } else {
      if (!Array.isArray(v)) {
        issues.push({ loc, message: 'Input should be a valid list', type: 'list_type', input: v });
        continue;
      }
      const items: Record<string, PyValue>[] = [];
      v.forEach((item, i) => {
        if (item instanceof Map) {
          items.push(validateInto(type.listOf, item, `${loc}.${i}.`, issues) as Record<string, PyValue>);
        } else {
          issues.push({
            loc: `${loc}.${i}`,
            message: `Input should be a valid dictionary or instance of ${type.listOf.name}`,
            type: 'model_type',
            input: item,
          });
        }
      });
      out[field] = items;
    }
  }
  return out;
}

function inputRepr(input: Issue['input']): string {
  if (input !== null && typeof input === 'object' && 'kwargs' in input)
    return pydanticInputRepr(input.kwargs as PyValue);
  return pydanticInputRepr(input as PyValue);
}

/**
 * Validates keyword values against a model, as `Model(**values)` does (unknown keys are ignored).
 * @returns the coerced values in model field order.
 * @throws {ToolError} with pydantic's `N validation error(s) for <Model>` text.
 */
export function validateModel(spec: ModelSpec, values: ReadonlyMap<string, PyValue>): Validated {
  const issues: Issue[] = [];
  const out = validateInto(spec, values, '', issues);
  if (issues.length > 0) {
    const n = issues.length;
    const lines = issues.map(
      (i) =>
        `${i.loc}\n  ${i.message} [type=${i.type}, input_value=${inputRepr(i.input)}, input_type=${
          i.input !== null && typeof i.input === 'object' && 'kwargs' in i.input
            ? 'dict'
            : pyTypeName(i.input as PyValue)
        }]\n    For further information visit ${DOCS}${i.type}`,
    );
    throw new ToolError(`${n} validation error${n === 1 ? '' : 's'} for ${spec.name}\n${lines.join('\n')}`);
  }
  return out;
}

export const FLIGHT_INFO: ModelSpec = {
  name: 'FlightInfo',
  fields: [
    ['flight_number', 'str'],
    ['date', 'str'],
  ],
};
export const PASSENGER: ModelSpec = {
  name: 'Passenger',
  fields: [
    ['first_name', 'str'],
    ['last_name', 'str'],
    ['dob', 'str'],
  ],
};
export const PAYMENT: ModelSpec = {
  name: 'Payment',
  fields: [
    ['payment_id', 'str'],
    ['amount', 'int'],
  ],
};

/** Python's `str(KeyError(key))`: the key's repr. */
export function keyErrorText(key: PyValue): string {
  return pyRepr(key);
}
