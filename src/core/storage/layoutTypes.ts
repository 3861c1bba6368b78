/**
 * The shapes of a storage layout: solc's storageLayout (types and items) and a contract's layout
 * as Chaindeck reads it from a compiler file (layout.ts parses; erc7201/ adds namespaces).
 */

/** One type of solc's storageLayout.types. */
export interface SolcType {
  encoding: 'inplace' | 'mapping' | 'dynamic_array' | 'bytes';
  label: string;
  numberOfBytes: string;
  base?: string;
  key?: string;
  value?: string;
  members?: SolcStorageItem[];
  /** An enum's member names, in order, from the AST (solc's layout does not give them). */
  enumMembers?: string[];
}

/** One item of solc's storageLayout.storage (and of a struct's members). */
export interface SolcStorageItem {
  astId?: number;
  contract?: string;
  label: string;
  offset: number;
  slot: string;
  type: string;
}

export interface SolcStorageLayout {
  storage: SolcStorageItem[];
  types: Record<string, SolcType> | null;
}

/** One state variable, as the storage table shows it. */
export interface LayoutVariable {
  label: string;
  /** Slot number in decimal, as solc writes it. */
  slot: string;
  /** Byte offset within the slot, from the right. */
  offset: number;
  /** The type as written in Solidity, e.g. "uint256", "mapping(address => uint256)". */
  type: string;
  /** solc's type id, e.g. "t_uint256": the key into `types`. */
  typeId: string;
  numberOfBytes: number;
}

/** A byte range of deployed code that differs per deployment (immutables) or per link (libraries). */
export interface CodeRange {
  start: number;
  length: number;
}

export interface ContractLayout {
  contractName: string;
  /** Source unit, e.g. "contracts/Token.sol". */
  source: string;
  storage: LayoutVariable[];
  types: Record<string, SolcType>;
  /** Deployed (runtime) bytecode, 0x-hex, when the artifact holds it. */
  deployedBytecode?: string;
  /** Immutable and library-link ranges of deployedBytecode, ignored when matching. */
  variableRanges: CodeRange[];
  /** The file it came from, when loaded from disk. */
  artifact?: string;
  /** What the layout leaves out and why, one line each (e.g. namespaces of a file without an AST). */
  notes?: string[];
}
