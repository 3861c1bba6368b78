/**
 * ABI values and signatures as a gnd test file writes them: events as their full signature with
 * `indexed` and names (`Transfer(address indexed from, address indexed to, uint256 value)`),
 * functions as `name(inputs)(outputs)`, values as JSON gnd encodes back to the same bytes
 * (addresses and bytes lowercase hex, integers decimal strings, tuples positional arrays).
 */
import type { EventFragment, FunctionFragment, ParamType } from 'ethers';

/** A value gnd cannot turn back into the log it came from: the capture says so and stops. */
export class UnreplayableError extends Error {}

/** An event's signature as gnd parses it: types, `indexed`, names. */
export function eventSignature(event: EventFragment): string {
  return `${event.name}(${event.inputs.map((p) => `${p.format('sighash')}${p.indexed ? ' indexed' : ''} ${p.name}`).join(', ')})`;
}

/** A function's signature as gnd's ethCalls take it: `balanceOf(address)(uint256)`. */
export function functionSignature(fn: FunctionFragment): string {
  return `${fn.name}(${fn.inputs.map((p) => p.format('sighash')).join(',')})(${fn.outputs.map((p) => p.format('sighash')).join(',')})`;
}

/** A decoded ABI value as gnd reads it back (trigger.rs's json_to_sol_value, in reverse). */
export function gndValue(param: ParamType, value: unknown): unknown {
  if (param.isArray()) return Array.from(value as ArrayLike<unknown>, (v) => gndValue(param.arrayChildren, v));
  if (param.isTuple()) return param.components.map((c, i) => gndValue(c, (value as ArrayLike<unknown>)[i]));
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return param.baseType === 'string' ? value : value.toLowerCase();
  throw new UnreplayableError(`a ${param.type} value of the ABI cannot be written for gnd`);
}

/** Indexed parameters whose topic is a hash of the value: the log does not hold the value itself. */
export function hashedIndexed(event: EventFragment): string[] {
  return event.inputs.filter((p) => p.indexed && (p.isArray() || p.isTuple() || p.baseType === 'string' || p.baseType === 'bytes')).map((p) => p.name || '(unnamed)');
}

/** The names gnd finds params by: every input of the event must have one, and a distinct one. */
export function unnamedInputs(event: EventFragment): boolean {
  const names = event.inputs.map((p) => p.name);
  return names.some((n) => !n) || new Set(names).size !== names.length;
}
