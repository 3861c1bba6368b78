// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";

/// The demo's upgradeable ERC-20 that keeps a season of scores, as OpenZeppelin 5 contracts are
/// written: every variable in an ERC-7201 namespace, the contract deployed behind an ERC1967Proxy
/// (UUPS), so its state is read at the proxy's address with this contract's layout.
contract Points is ERC20Upgradeable, OwnableUpgradeable, UUPSUpgradeable {
    /// @custom:storage-location erc7201:example.points.main
    struct MainStorage {
        uint64 season;
        bool open;
        address keeper;
        uint256[] scores;
        mapping(address => uint256) bonus;
        string motto;
    }

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function _main() private pure returns (MainStorage storage $) {
        // EIP-7201's formula: keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~bytes32(uint256(0xff)).
        bytes32 root = keccak256(abi.encode(uint256(keccak256("example.points.main")) - 1)) & ~bytes32(uint256(0xff));
        assembly {
            $.slot := root
        }
    }

    function initialize(string calldata name_, string calldata symbol_, address keeper) external initializer {
        __ERC20_init(name_, symbol_);
        __Ownable_init(msg.sender);
        MainStorage storage $ = _main();
        $.season = 1;
        $.open = true;
        $.keeper = keeper;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function score(uint256 points) external {
        _main().scores.push(points);
    }

    function setBonus(address who, uint256 amount) external onlyOwner {
        _main().bonus[who] = amount;
    }

    function setMotto(string calldata motto) external onlyOwner {
        _main().motto = motto;
    }

    function nextSeason() external onlyOwner {
        _main().season += 1;
    }

    function _authorizeUpgrade(address) internal override onlyOwner {}
}
