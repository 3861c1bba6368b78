/* eslint-disable */
// @ts-nocheck: AssemblyScript for `graph build`, not part of this repository's TypeScript.
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { Approval as ApprovalEvent, Transfer as TransferEvent } from "../generated/DemoToken/DemoToken";
import { Account, Approval, Transfer } from "../generated/schema";

function account(address: Bytes): Account {
  let account = Account.load(address);
  if (account == null) {
    account = new Account(address);
    account.balance = BigInt.zero();
  }
  return account;
}

// The id joins the transaction hash and the log index, unique across the chain.
export function handleTransfer(event: TransferEvent): void {
  const from = account(event.params.from);
  const to = account(event.params.to);
  // Mints come from the zero address, whose balance is not a real one: it is left at zero.
  if (!event.params.from.equals(Address.zero())) {
    from.balance = from.balance.minus(event.params.value);
  }
  from.save();
  to.balance = to.balance.plus(event.params.value);
  to.save();

  const transfer = new Transfer(event.transaction.hash.concatI32(event.logIndex.toI32()));
  transfer.from = from.id;
  transfer.to = to.id;
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
}
