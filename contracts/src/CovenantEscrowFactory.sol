// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {CovenantEscrow, LegTerms} from "./CovenantEscrow.sol";

/**
 * @title CovenantEscrowFactory
 * @notice Deploys one {CovenantEscrow} per deal leg as an EIP-1167 clone at a CREATE2 address
 * whose salt is `keccak256(abi.encode(terms))`: anyone can recompute the deposit address from the
 * leg's terms and this factory, before or after deployment, and the address commits to the terms.
 */
contract CovenantEscrowFactory {
    /// @notice The escrow implementation every clone delegates to (deployed by this factory).
    address public immutable implementation;

    event EscrowCreated(address indexed escrow, bytes32 indexed dealId, uint8 indexed leg);

    constructor() {
        implementation = address(new CovenantEscrow());
    }

    /**
     * @notice Deploys and initializes the escrow for `terms`. Idempotent: when it already exists
     * its address is returned and nothing changes.
     */
    function createEscrow(LegTerms calldata terms) external returns (address escrow) {
        bytes32 salt = escrowSalt(terms);
        escrow = Clones.predictDeterministicAddress(implementation, salt);
        if (escrow.code.length > 0) return escrow;
        Clones.cloneDeterministic(implementation, salt);
        CovenantEscrow(payable(escrow)).initialize(terms);
        emit EscrowCreated(escrow, terms.dealId, terms.leg);
    }

    /// @notice The address of the escrow for `terms`, whether or not it is deployed yet.
    function predictEscrow(LegTerms calldata terms) external view returns (address) {
        return Clones.predictDeterministicAddress(implementation, escrowSalt(terms));
    }

    /// @notice The CREATE2 salt of the escrow for `terms`.
    function escrowSalt(LegTerms calldata terms) public pure returns (bytes32) {
        return keccak256(abi.encode(terms));
    }
}
