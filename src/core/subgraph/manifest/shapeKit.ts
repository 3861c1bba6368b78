/**
 * The vocabulary the manifest's shapes are written in: a shape per value type, objects of fields
 * (required or not, with the doc hovers and completions show), and the builders both the Ethereum
 * shape and the other protocols' shapes use.
 */

export type Shape =
  | { type: 'String' | 'BigInt' | 'Boolean' | 'File' | 'JSON' }
  | { type: 'enum'; name: string; values: readonly string[] }
  | { type: 'list'; of: Shape; itemRequired: boolean }
  | { type: 'object'; name: string; fields: Readonly<Record<string, Field>> }
  | { type: 'union'; name: string; of: readonly Shape[] };

export type ObjectShape = Extract<Shape, { type: 'object' }>;

export interface Field {
  shape: Shape;
  required: boolean;
  doc: string;
}

export const string: Shape = { type: 'String' };
export const bigint: Shape = { type: 'BigInt' };
export const boolean: Shape = { type: 'Boolean' };
export const file: Shape = { type: 'File' };
export const json: Shape = { type: 'JSON' };
export const listOf = (of: Shape, itemRequired = true): Shape => ({ type: 'list', of, itemRequired });
export const object = (name: string, fields: Record<string, Field>): ObjectShape => ({ type: 'object', name, fields });
export const req = (shape: Shape, doc: string): Field => ({ shape, required: true, doc });
export const opt = (shape: Shape, doc: string): Field => ({ shape, required: false, doc });
