// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/**
 * @title TestTetherToken
 * @notice Behaves like mainnet USDT where it matters to callers: 6 decimals, and `transfer`,
 * `transferFrom` and `approve` return nothing (a plain `IERC20` call would fail to decode them).
 */
contract TestTetherToken {
    string public constant name = "Tether USD";
    string public constant symbol = "USDT";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;

    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @notice Mints `amount` to `to`; anyone may call (test token).
    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    /// @notice Moves `value` from the caller to `to`; returns nothing, as USDT does.
    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    /// @notice Moves `value` from `from` to `to` within the caller's allowance; returns nothing.
    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
    }

    /// @notice Sets the caller's allowance for `spender`; returns nothing.
    function approve(address spender, uint256 value) external {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    /// @dev Moves `value` from `from` to `to`, reverting on an insufficient balance.
    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
