// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/**
 * @dev The accepted terms of one leg of a deal. The escrow's address commits to them: the factory
 * deploys it with CREATE2 and `salt = keccak256(abi.encode(terms))`.
 */
struct LegTerms {
    /// @dev The deal's id (the platform's UUID, left-aligned in 32 bytes).
    bytes32 dealId;
    /// @dev 0 = asset leg (seller gives), 1 = stable leg (buyer gives).
    uint8 leg;
    /// @dev The ERC-20 held, or address(0) for ETH.
    address token;
    /// @dev The required deposit in the token's base units.
    uint256 amount;
    /// @dev Where refunds, excess and late deposits go (the giving party's refund address).
    address depositor;
    /// @dev Where the released amount minus the fee goes (the receiving party's payout address).
    address receiver;
    /// @dev The platform's fee address on this chain.
    address feeRecipient;
    /// @dev Unix time after which anyone may refund an unsettled escrow.
    uint64 deadline;
    address buyer;
    address seller;
    address platform;
}

/**
 * @title CovenantEscrow
 * @notice Holds one leg of a Covenant deal (ETH or one ERC-20) and pays it out only as two of its
 * three signers (buyer, seller, platform) approve with EIP-712 signatures over
 * `Payout(uint8 action,address[] recipients,uint256[] amounts,uint256 nonce)` in the domain
 * {name "CovenantEscrow", version "1", chainId, verifyingContract = this escrow}.
 *
 * Actions and the payload each one needs:
 *
 * - RELEASE (0): `recipients = [receiver]` and `amounts = [amount]` exactly as in the terms, or
 *   `amounts = [amount, charge]` where `charge` is the receiver's share of the travel already paid
 *   out of the escrow (`charge <= travelPaid()` and `charge <= amount - fee`). Pays
 *   `amount - fee - charge` to the receiver, `fee = platformFee(amount)` to the fee recipient and
 *   `balance - (amount - charge)` back to the depositor, in one transaction. Without a charge that
 *   is the receiver `amount - fee` and any balance above `amount` back.
 * - REFUND (1): `recipients = []`, `amounts = []` (the refund address is fixed by the terms this
 *   escrow's address commits to). Pays the whole balance to the depositor, without fee.
 * - SPLIT (2): any recipients with gross amounts (a mediator's decision). Each recipient `i` gets
 *   `amounts[i] - platformFee(amounts[i])`, the fee recipient gets the sum of those fees, and
 *   whatever the balance holds beyond `sum(amounts)` goes back to the depositor.
 * - TRAVEL (3): `recipients = [payee]`, `amounts = [value]`, value > 0: pays exactly `value` to the
 *   payee (a travel provider, for the deal's meeting), without fee, adds it to {travelPaid} and logs
 *   `TravelPaid`. It does NOT settle the escrow: it only consumes the nonce, so several travel
 *   payouts may precede the payout that settles. REFUND and SPLIT pay from what is left; RELEASE
 *   may charge the receiver for (part of) it.
 *
 * RELEASE, REFUND and SPLIT settle the escrow for good. Every payout's `nonce` must equal {nonce}
 * and is consumed by it, so a signature set can never run twice and payouts run in the order they
 * were signed for. A payout that fails (e.g. a token that blacklists its recipient) reverts as a
 * whole and leaves the escrow unsettled, so another payout stays possible.
 * After the deadline anyone may refund an unsettled escrow; after settlement anyone may sweep
 * late deposits back to the depositor. An asset the escrow does not hold for the deal (a wrong
 * token) goes back by {returnForeignAsset}, signed for over
 * `ForeignReturn(bytes32 arrival,address asset,address to,uint256 amount)` in the same domain:
 * the platform alone may send it to either party's address in the terms (the one who sent it),
 * two of the three signers to any other address. What the escrow holds is its balance (no internal ledger
 * beyond the travel total, which only bounds what a release may charge the receiver).
 *
 * Deployed as EIP-1167 clones of one implementation by {CovenantEscrowFactory}; only that factory
 * can initialize a clone.
 */
contract CovenantEscrow is EIP712, ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum Action {
        Release,
        Refund,
        Split,
        Travel
    }

    bytes32 public constant PAYOUT_TYPEHASH =
        keccak256("Payout(uint8 action,address[] recipients,uint256[] amounts,uint256 nonce)");
    bytes32 public constant FOREIGN_RETURN_TYPEHASH =
        keccak256("ForeignReturn(bytes32 arrival,address asset,address to,uint256 amount)");
    uint256 private constant _FEE_DIVISOR = 10_000;
    uint256 private constant _REQUIRED_SIGNATURES = 2;

    address private immutable _factory;

    LegTerms private _terms;
    bool private _initialized;
    bool private _settled;
    uint256 private _nonce;
    uint256 private _travelPaid;
    mapping(bytes32 arrival => bool) private _returned;

    event Initialized(bytes32 indexed dealId, uint8 indexed leg, address token, uint256 amount);
    event Deposited(address indexed from, uint256 amount);
    event Paid(address indexed to, uint256 amount);
    event FeePaid(address indexed to, uint256 amount);
    event Settled(Action indexed action, uint256 nonce);
    event TravelPaid(uint256 indexed nonce, address indexed payee, uint256 amount);
    event RefundedAfterDeadline(address indexed caller, uint256 amount);
    event Swept(address indexed to, uint256 amount);
    event ForeignAssetReturned(bytes32 indexed arrival, address indexed asset, address indexed to, uint256 amount);

    error CovenantEscrowUnauthorizedInitializer(address caller);
    error CovenantEscrowAlreadyInitialized();
    error CovenantEscrowInvalidTerms(string reason);
    error CovenantEscrowEthNotAccepted();
    error CovenantEscrowAlreadySettled();
    error CovenantEscrowNotSettled();
    error CovenantEscrowInvalidNonce(uint256 expected, uint256 given);
    error CovenantEscrowNotEnoughSignatures(uint256 given, uint256 required);
    error CovenantEscrowUnknownSigner(address recovered);
    error CovenantEscrowDuplicateSigner(address signer);
    error CovenantEscrowInvalidPayout();
    error CovenantEscrowInsufficientBalance(uint256 required, uint256 available);
    error CovenantEscrowDeadlineNotReached(uint64 deadline);
    error CovenantEscrowNothingToTransfer();
    error CovenantEscrowNotForeignAsset(address asset);
    error CovenantEscrowAlreadyReturned(bytes32 arrival);

    constructor() EIP712("CovenantEscrow", "1") {
        _factory = msg.sender;
        // The implementation itself never holds funds.
        _initialized = true;
    }

    /**
     * @notice Fixes the leg's terms; called once, by the factory, in the transaction that deploys
     * the clone.
     */
    function initialize(LegTerms calldata legTerms) external {
        if (msg.sender != _factory) revert CovenantEscrowUnauthorizedInitializer(msg.sender);
        if (_initialized) revert CovenantEscrowAlreadyInitialized();
        _validateTerms(legTerms);
        _initialized = true;
        _terms = legTerms;
        emit Initialized(legTerms.dealId, legTerms.leg, legTerms.token, legTerms.amount);
    }

    /// @notice Accepts ETH deposits (ETH escrows only) and logs them for the deposit watcher.
    receive() external payable {
        if (_terms.token != address(0)) revert CovenantEscrowEthNotAccepted();
        emit Deposited(msg.sender, msg.value);
    }

    /**
     * @notice Pays the escrow out as `action` says, given at least two signatures of distinct
     * signers over the payload (see the contract's documentation for each action's payload).
     */
    function executePayout(
        Action action,
        address[] calldata recipients,
        uint256[] calldata amounts,
        uint256 payoutNonce,
        bytes[] calldata signatures
    ) external nonReentrant {
        if (payoutNonce != _nonce) revert CovenantEscrowInvalidNonce(_nonce, payoutNonce);
        if (_settled) revert CovenantEscrowAlreadySettled();
        _checkSignatures(payoutDigest(action, recipients, amounts, payoutNonce), signatures);
        if (action == Action.Travel) {
            _payTravel(recipients, amounts, payoutNonce);
            return;
        }

        LegTerms memory legTerms = _terms;
        uint256 held = _balance();
        uint256 total;
        uint256 charge;
        if (action == Action.Release) {
            if (recipients.length != 1 || amounts.length == 0 || amounts.length > 2) revert CovenantEscrowInvalidPayout();
            if (recipients[0] != legTerms.receiver || amounts[0] != legTerms.amount) revert CovenantEscrowInvalidPayout();
            if (amounts.length == 2) {
                charge = amounts[1];
                // The receiver pays only for travel actually paid, and never more than it receives.
                if (charge > _travelPaid || charge > legTerms.amount - platformFee(legTerms.amount)) {
                    revert CovenantEscrowInvalidPayout();
                }
            }
            total = legTerms.amount - charge;
        } else if (action == Action.Refund) {
            if (recipients.length != 0 || amounts.length != 0) revert CovenantEscrowInvalidPayout();
        } else {
            if (recipients.length == 0 || recipients.length != amounts.length) revert CovenantEscrowInvalidPayout();
            for (uint256 i = 0; i < amounts.length; ++i) {
                total += amounts[i];
            }
        }
        if (held < total) revert CovenantEscrowInsufficientBalance(total, held);

        _settled = true;
        _nonce = payoutNonce + 1;
        emit Settled(action, payoutNonce);

        uint256 fees;
        if (action == Action.Release) {
            fees = platformFee(legTerms.amount);
            _pay(legTerms.receiver, legTerms.amount - fees - charge);
        } else if (action == Action.Split) {
            for (uint256 i = 0; i < recipients.length; ++i) {
                uint256 fee = platformFee(amounts[i]);
                fees += fee;
                _pay(recipients[i], amounts[i] - fee);
            }
        }
        _payFee(legTerms.feeRecipient, fees);
        _pay(legTerms.depositor, held - total);
    }

    /**
     * @notice After the deadline, anyone may send the whole balance of an unsettled escrow to the
     * depositor's refund address. This settles the escrow.
     */
    function refundAfterDeadline() external nonReentrant {
        if (_settled) revert CovenantEscrowAlreadySettled();
        uint64 deadline = _terms.deadline;
        if (block.timestamp <= deadline) revert CovenantEscrowDeadlineNotReached(deadline);
        uint256 held = _balance();
        _settled = true;
        emit RefundedAfterDeadline(msg.sender, held);
        _pay(_terms.depositor, held);
    }

    /// @notice After settlement, anyone may send what arrived late back to the depositor.
    function sweep() external nonReentrant {
        if (!_settled) revert CovenantEscrowNotSettled();
        uint256 held = _balance();
        if (held == 0) revert CovenantEscrowNothingToTransfer();
        emit Swept(_terms.depositor, held);
        _transfer(_terms.depositor, held);
    }

    /**
     * @notice Sends `amount` of an asset this escrow does not hold for the deal (`asset` is a
     * token other than the leg's, or address(0) for ETH in a token escrow) to `to`, once per
     * `arrival` (the platform's id of the mistaken deposit). The platform's signature alone may
     * send it to one of the two parties at its address in the terms (the depositor's refund
     * address or the receiver's payout address): the platform names the party that sent it. Any
     * other recipient needs two distinct signers of the three. The leg's own asset never moves here.
     */
    function returnForeignAsset(
        bytes32 arrival,
        address asset,
        address to,
        uint256 amount,
        bytes[] calldata signatures
    ) external nonReentrant {
        if (asset == _terms.token) revert CovenantEscrowNotForeignAsset(asset);
        if (_returned[arrival]) revert CovenantEscrowAlreadyReturned(arrival);
        if (amount == 0 || to == address(0) || to == address(this)) revert CovenantEscrowInvalidPayout();
        uint256 seen = _signersOf(foreignReturnDigest(arrival, asset, to, amount), signatures);
        bool toParty = to == _terms.depositor || to == _terms.receiver;
        // Bit 2 is the platform (see `_signersOf`).
        if (!(toParty && seen & 4 != 0) && (seen & 1) + ((seen >> 1) & 1) + ((seen >> 2) & 1) < _REQUIRED_SIGNATURES) {
            revert CovenantEscrowNotEnoughSignatures(signatures.length, _REQUIRED_SIGNATURES);
        }
        uint256 held = asset == address(0) ? address(this).balance : IERC20(asset).balanceOf(address(this));
        if (held < amount) revert CovenantEscrowInsufficientBalance(amount, held);
        _returned[arrival] = true;
        emit ForeignAssetReturned(arrival, asset, to, amount);
        if (asset == address(0)) {
            Address.sendValue(payable(to), amount);
        } else {
            IERC20(asset).safeTransfer(to, amount);
        }
    }

    /// @notice The EIP-712 digest signed for returning a foreign asset (see {returnForeignAsset}).
    function foreignReturnDigest(bytes32 arrival, address asset, address to, uint256 amount) public view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(FOREIGN_RETURN_TYPEHASH, arrival, asset, to, amount)));
    }

    /// @notice Whether the foreign asset of `arrival` has been returned.
    function returned(bytes32 arrival) external view returns (bool) {
        return _returned[arrival];
    }

    /// @notice The platform fee on `amount`: one basis point, rounded down to the base unit.
    function platformFee(uint256 amount) public pure returns (uint256) {
        return amount / _FEE_DIVISOR;
    }

    /// @notice The EIP-712 digest the signers sign for a payout.
    function payoutDigest(
        Action action,
        address[] calldata recipients,
        uint256[] calldata amounts,
        uint256 payoutNonce
    ) public view returns (bytes32) {
        return
            _hashTypedDataV4(
                keccak256(
                    abi.encode(
                        PAYOUT_TYPEHASH,
                        uint8(action),
                        keccak256(abi.encodePacked(recipients)),
                        keccak256(abi.encodePacked(amounts)),
                        payoutNonce
                    )
                )
            );
    }

    /// @notice The leg's terms.
    function terms() external view returns (LegTerms memory) {
        return _terms;
    }

    /// @notice The nonce the next payout must carry.
    function nonce() external view returns (uint256) {
        return _nonce;
    }

    /// @notice The total paid out by TRAVEL payouts so far, in base units.
    function travelPaid() external view returns (uint256) {
        return _travelPaid;
    }

    /// @notice Whether a payout or a refund has settled the escrow.
    function settled() external view returns (bool) {
        return _settled;
    }

    /// @notice What the escrow holds of its asset, in base units.
    function balance() external view returns (uint256) {
        return _balance();
    }

    /// @notice The factory that deployed this escrow's implementation and initializes its clones.
    function factory() external view returns (address) {
        return _factory;
    }

    /// @dev Reverts unless `signatures` hold at least two valid signatures of distinct signers over `digest`.
    function _checkSignatures(bytes32 digest, bytes[] calldata signatures) private view {
        if (signatures.length < _REQUIRED_SIGNATURES) {
            revert CovenantEscrowNotEnoughSignatures(signatures.length, _REQUIRED_SIGNATURES);
        }
        _signersOf(digest, signatures);
    }

    /**
     * @dev Who signed `digest`, as bits (1 buyer, 2 seller, 4 platform); reverts on a signature of
     * anyone else or two of the same signer.
     */
    function _signersOf(bytes32 digest, bytes[] calldata signatures) private view returns (uint256 seen) {
        address[3] memory signers = [_terms.buyer, _terms.seller, _terms.platform];
        for (uint256 i = 0; i < signatures.length; ++i) {
            address recovered = ECDSA.recover(digest, signatures[i]);
            uint256 index = 0;
            while (index < 3 && signers[index] != recovered) ++index;
            if (index == 3) revert CovenantEscrowUnknownSigner(recovered);
            if (seen & (1 << index) != 0) revert CovenantEscrowDuplicateSigner(recovered);
            seen |= 1 << index;
        }
    }

    /**
     * @dev A TRAVEL payout: exactly `amounts[0]` to `recipients[0]`, no fee, the escrow left open
     * with the nonce consumed. The payee may be anyone but nobody (address 0) and the escrow itself.
     */
    function _payTravel(address[] calldata recipients, uint256[] calldata amounts, uint256 payoutNonce) private {
        if (recipients.length != 1 || amounts.length != 1) revert CovenantEscrowInvalidPayout();
        address payee = recipients[0];
        uint256 value = amounts[0];
        if (value == 0 || payee == address(0) || payee == address(this)) revert CovenantEscrowInvalidPayout();
        uint256 held = _balance();
        if (held < value) revert CovenantEscrowInsufficientBalance(value, held);
        _nonce = payoutNonce + 1;
        _travelPaid += value;
        emit TravelPaid(payoutNonce, payee, value);
        _pay(payee, value);
    }

    /// @dev Reverts on terms no escrow can settle: a bad leg, no amount, a token without code, zero
    /// addresses, or signers that are not three distinct addresses.
    function _validateTerms(LegTerms calldata legTerms) private view {
        if (legTerms.leg > 1) revert CovenantEscrowInvalidTerms("leg");
        if (legTerms.amount == 0) revert CovenantEscrowInvalidTerms("amount");
        if (legTerms.token != address(0) && legTerms.token.code.length == 0) {
            revert CovenantEscrowInvalidTerms("token");
        }
        if (
            legTerms.depositor == address(0) ||
            legTerms.receiver == address(0) ||
            legTerms.feeRecipient == address(0)
        ) revert CovenantEscrowInvalidTerms("zero address");
        if (
            legTerms.buyer == address(0) ||
            legTerms.seller == address(0) ||
            legTerms.platform == address(0) ||
            legTerms.buyer == legTerms.seller ||
            legTerms.buyer == legTerms.platform ||
            legTerms.seller == legTerms.platform
        ) revert CovenantEscrowInvalidTerms("signers");
    }

    /// @dev What the escrow holds of its own asset.
    function _balance() private view returns (uint256) {
        address token = _terms.token;
        return token == address(0) ? address(this).balance : IERC20(token).balanceOf(address(this));
    }

    /// @dev Sends `amount` (if any) of the escrow's asset to `to`, logged as a payment.
    function _pay(address to, uint256 amount) private {
        if (amount == 0) return;
        emit Paid(to, amount);
        _transfer(to, amount);
    }

    /// @dev Sends the platform fee (if any) to the fee recipient, logged as a fee.
    function _payFee(address to, uint256 amount) private {
        if (amount == 0) return;
        emit FeePaid(to, amount);
        _transfer(to, amount);
    }

    /// @dev Moves `amount` of the escrow's asset: ETH with a full-gas call, tokens through SafeERC20.
    function _transfer(address to, uint256 amount) private {
        address token = _terms.token;
        if (token == address(0)) {
            Address.sendValue(payable(to), amount);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }
}
