// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// The demo's token: a plain OpenZeppelin ERC-20 whose owner can mint and airdrop.
/// `airdrop` pays many accounts in one transaction, one Transfer event each, so a subgraph
/// can be given thousands of events in a few blocks.
contract DemoToken is ERC20, Ownable {
    constructor(uint256 initialSupply) ERC20("Demo Token", "DEMO") Ownable(msg.sender) {
        _mint(msg.sender, initialSupply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// Sends `amount` from the caller to each recipient: one Transfer event per recipient.
    function airdrop(address[] calldata recipients, uint256 amount) external {
        for (uint256 i = 0; i < recipients.length; i++) {
            _transfer(msg.sender, recipients[i], amount);
        }
    }
}
