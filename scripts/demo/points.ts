/**
 * The demo's contract as deployed in production: Points (demo/contracts/Points.sol, an
 * OpenZeppelin 5 upgradeable ERC-20 whose state lives in ERC-7201 namespaces) behind an
 * ERC1967Proxy (UUPS), initialised in the proxy's constructor, then some activity through the
 * proxy: mints, transfers, approvals, scores, a bonus, a motto. Everything is sent to the proxy's
 * address, so its storage (and its events) are the proxy's.
 */
import { Contract, ContractFactory, Interface, parseUnits, type JsonRpcSigner } from 'ethers';
import { demoBuildInfo, demoContract, type BuildInfo } from './build';
import { mined, withChain } from './chain';

export interface DeployedPoints {
  /** The ERC1967Proxy: the address users (and the demo) read. */
  proxy: string;
  /** The Points implementation the proxy delegates to. */
  implementation: string;
  /** What the activity left, for a reader to check against. */
  state: {
    name: string;
    symbol: string;
    keeper: string;
    scores: bigint[];
    bonus: Record<string, bigint>;
    motto: string;
    /** Token balances by holder. */
    balances: Record<string, bigint>;
    /** Allowances by owner, then spender. */
    allowances: Record<string, Record<string, bigint>>;
  };
}

export const POINTS_NAME = 'Demo Points';
export const POINTS_SYMBOL = 'PTS';
export const POINTS_MOTTO = 'Every point counts, and every slot is named.';

/** Deploys Points and its proxy from the node's first account (the owner) and sends some activity through the proxy. */
export async function deployPoints(rpcUrl: string, info: BuildInfo = demoBuildInfo()): Promise<DeployedPoints> {
  return withChain(rpcUrl, async ({ provider, signers }) => {
    const [owner, alice, bob, carol] = signers;
    const points = demoContract(info, 'Points');
    const proxyCode = demoContract(info, 'ERC1967Proxy');
    const deployed = async (factory: ContractFactory, ...args: unknown[]) => {
      const c = await factory.deploy(...args);
      await mined(provider, c.deploymentTransaction()!.hash);
      return c.getAddress();
    };
    const implementation = await deployed(new ContractFactory(points.abi, points.bytecode, owner));
    const init = new Interface(points.abi).encodeFunctionData('initialize', [POINTS_NAME, POINTS_SYMBOL, carol.address]);
    const proxy = await deployed(new ContractFactory(proxyCode.abi, proxyCode.bytecode, owner), implementation, init);

    const as = (signer: JsonRpcSigner) => new Contract(proxy, points.abi, signer);
    const units = (n: number) => parseUnits(String(n), 18);
    const steps: [JsonRpcSigner, string, unknown[]][] = [
      [owner, 'mint', [alice.address, units(1000)]],
      [owner, 'mint', [bob.address, units(300)]],
      [alice, 'transfer', [carol.address, units(120)]],
      [alice, 'approve', [bob.address, units(50)]],
      [bob, 'approve', [carol.address, units(75)]],
      [alice, 'score', [42]],
      [bob, 'score', [17]],
      [carol, 'score', [99]],
      [owner, 'setBonus', [alice.address, 7]],
      [owner, 'setMotto', [POINTS_MOTTO]],
    ];
    for (const [signer, method, args] of steps) {
      const tx = await as(signer)
        .getFunction(method)
        .send(...args);
      await mined(provider, tx.hash);
    }
    return {
      proxy,
      implementation,
      state: {
        name: POINTS_NAME,
        symbol: POINTS_SYMBOL,
        keeper: carol.address,
        scores: [42n, 17n, 99n],
        bonus: { [alice.address]: 7n },
        motto: POINTS_MOTTO,
        balances: { [alice.address]: units(880), [bob.address]: units(300), [carol.address]: units(120) },
        allowances: { [alice.address]: { [bob.address]: units(50) }, [bob.address]: { [carol.address]: units(75) } },
      },
    };
  });
}
