/**
 * An enum's member names, which solc's storageLayout leaves out (it gives only the size): read
 * from the AST by the definition's id, the number in the type id `t_enum(Kind)12`. The upgrade
 * check needs them: a member inserted or reordered changes what every stored value means.
 */
import type { AstIndex } from '../erc7201/ast';
import type { SolcType } from '../layoutTypes';

const ENUM_ID = /^t_enum\([^)]*\)(\d+)$/;

/** Sets `enumMembers` on every enum type of `types` whose definition the AST holds. */
export function addEnumMembers(types: Record<string, SolcType>, index: AstIndex): void {
  for (const [id, type] of Object.entries(types)) {
    const m = ENUM_ID.exec(id);
    if (!m || type.enumMembers) continue;
    const def = index.get(Number(m[1]));
    if (def?.nodeType === 'EnumDefinition' && def.members) type.enumMembers = def.members.map((member) => member.name ?? '');
  }
}
