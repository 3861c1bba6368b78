/** Contract storage: ranges (native and emulated), slot arithmetic, word decoding, layout labels. Import from here. */
export { storageRange, toSpecOutput, type StorageRangeOptions, type StorageRangeResult, type SpecOutput } from './range';
export { StorageRangeError, STORAGE_ERROR_CODE, CONNECT_FAILED, BLOCK_FAILED_PREFIX, type StorageErrorReason } from './errors';
export type { StorageRpc, StorageEntry, StorageMode, StorageProgress, ReadStrategy, ScanHooks } from './types';
export { lookupBlock, type BlockInfo } from './block';
export { scanFast, scanOneByOne, emulationOutput, readBudget, DEFAULT_MAX_BATCH, DEFAULT_CONCURRENCY, type ScanParams, type ScanResult, type FastScanOptions } from './emulate';
export { isMethodUnavailable } from './native';
export { parseBlockRef, normaliseAddress, parseStartKey, minimalHex, word, MAX_SLOT, ZERO_WORD, type BlockRef } from './inputs';
export {
  mappingSlot,
  nestedMappingSlot,
  mappingKeyBytes,
  arrayElementSlot,
  dynamicDataSlot,
  eip1967Slot,
  EIP1967_IMPLEMENTATION_SLOT,
  EIP1967_ADMIN_SLOT,
  EIP1967_BEACON_SLOT,
  decodeWord,
  sliceWord,
  toSlot,
  type DecodedWord,
  type MappingKeyType,
  type SlotLike,
} from './slots';
export {
  parseHardhatBuildInfo,
  parseFoundryArtifact,
  loadProjectLayouts,
  labelSlots,
  slotLabeller,
  codeMatches,
  matchLayouts,
  layoutsForAddress,
  stripMetadata,
  type ContractLayout,
  type LayoutVariable,
  type SolcStorageLayout,
  type SolcStorageItem,
  type SolcType,
  type CodeRange,
} from './layout';
