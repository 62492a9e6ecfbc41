// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

/**
 * @title TestReentrancyAttacker
 * @notice A payout receiver that, on receiving ETH, calls back into the escrow with a prepared
 * call (another payout, a refund, a sweep) and records whether that re-entry succeeded. It keeps
 * the ETH either way, so the outer payout completes and the test sees what re-entry achieved.
 */
contract TestReentrancyAttacker {
    address private _target;
    bytes private _payload;
    bool public reentered;
    bool public attempted;
    bytes public reentryError;

    /// @notice Arms the attack: on the next ETH receipt, call `target` with `payload`.
    function arm(address target, bytes calldata payload) external {
        _target = target;
        _payload = payload;
    }

    /// @notice Keeps the ETH and, the first time, re-enters the target with the prepared call.
    receive() external payable {
        if (attempted || _target == address(0)) return;
        attempted = true;
        (bool ok, bytes memory result) = _target.call(_payload);
        reentered = ok;
        if (!ok) reentryError = result;
    }
}
