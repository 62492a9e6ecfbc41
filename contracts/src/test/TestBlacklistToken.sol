// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title TestBlacklistToken
/// @notice An ERC-20 that refuses transfers from or to a blacklisted address, as USDC and USDT can.
contract TestBlacklistToken is ERC20 {
    mapping(address account => bool) private _blacklisted;

    event BlacklistUpdated(address indexed account, bool blacklisted);

    error TestBlacklistTokenBlacklisted(address account);

    constructor() ERC20("Blacklisting USD", "BUSD") {}

    /// @notice Mints `amount` to `to`; anyone may call (test token).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Adds `account` to or removes it from the blacklist; anyone may call (test token).
    function setBlacklisted(address account, bool blacklisted) external {
        _blacklisted[account] = blacklisted;
        emit BlacklistUpdated(account, blacklisted);
    }

    /// @inheritdoc ERC20
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @dev Refuses any movement from or to a blacklisted address, then moves as ERC20 does.
    function _update(address from, address to, uint256 value) internal override {
        if (_blacklisted[from]) revert TestBlacklistTokenBlacklisted(from);
        if (_blacklisted[to]) revert TestBlacklistTokenBlacklisted(to);
        super._update(from, to, value);
    }
}
