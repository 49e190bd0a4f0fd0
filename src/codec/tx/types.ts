/**
 * The shapes of Camino transactions and UTXOs as the node's linear codec lays them out (caminogo
 * branch `chain4travel`: vms/components/avax, vms/secp256k1fx, vms/avm/txs, vms/platformvm/txs,
 * vms/platformvm/locked; caminoethvm plugin/evm). IDs are raw bytes (32 for tx/asset/chain IDs,
 * 20 for short IDs and EVM addresses); amounts and u64 values are bigint; u32 values are numbers.
 * Field order in these interfaces is the order on the wire.
 */

/** Which virtual machine's codec: X (avm), P (Camino platformvm) or C (caminoethvm atomic). */
export type TxChain = 'X' | 'P' | 'C';

/** The codec version every tx and UTXO starts with (u16). */
export const CODEC_VERSION = 0;

/** Type IDs per codec, from each VM's registration order (codec.go, parser.go, fx.go). */
export const TYPE_IDS = {
  X: {
    BaseTx: 0,
    CreateAssetTx: 1,
    OperationTx: 2,
    ImportTx: 3,
    ExportTx: 4,
    TransferInput: 5,
    MintOutput: 6,
    TransferOutput: 7,
    MintOperation: 8,
    Credential: 9,
    NftMintOutput: 10,
    NftTransferOutput: 11,
    NftMintOperation: 12,
    NftTransferOperation: 13,
    NftCredential: 14,
  },
  P: {
    TransferInput: 5,
    MintOutput: 6,
    TransferOutput: 7,
    Credential: 9,
    Input: 10,
    OutputOwners: 11,
    ImportTx: 17,
    ExportTx: 18,
    StakeableLockIn: 21,
    StakeableLockOut: 22,
    LockedIn: 8192,
    LockedOut: 8193,
    DepositTx: 8197,
    UnlockDepositTx: 8198,
    BaseTx: 8200,
    ClaimTx: 8202,
    MultisigCredential: 8204,
    CrossTransferOutput: 8206,
  },
  C: {
    ImportTx: 0,
    ExportTx: 1,
    TransferInput: 5,
    TransferOutput: 7,
    Credential: 9,
    Input: 10,
    OutputOwners: 11,
  },
} as const;

/** secp256k1fx.OutputOwners: who may spend, from when (Unix seconds), with how many signatures. */
export interface OutputOwners {
  locktime: bigint;
  threshold: number;
  /** 20-byte short IDs, sorted ascending and unique. */
  addresses: Uint8Array[];
}

/** locked.IDs: a zero ID means "not locked that way". */
export interface LockIDs {
  depositTxID: Uint8Array;
  bondTxID: Uint8Array;
}

/** secp256k1fx.TransferOutput (type 7 everywhere). */
export interface SecpTransferOutput {
  kind: 'secp.transfer';
  amount: bigint;
  owners: OutputOwners;
}

/** secp256k1fx.MintOutput (type 6): the right to mint an asset, no amount. */
export interface SecpMintOutput {
  kind: 'secp.mint';
  owners: OutputOwners;
}

/** nftfx.TransferOutput (X type 11). */
export interface NftTransferOutput {
  kind: 'nft.transfer';
  groupID: number;
  payload: Uint8Array;
  owners: OutputOwners;
}

/** nftfx.MintOutput (X type 10). */
export interface NftMintOutput {
  kind: 'nft.mint';
  groupID: number;
  owners: OutputOwners;
}

/** Camino locked.Out (P type 8193): a deposited and/or bonded TransferOutput. */
export interface LockedOutput {
  kind: 'locked';
  lockIDs: LockIDs;
  output: SecpTransferOutput;
}

/** Avalanche stakeable.LockOut (P type 22): decoded so a UTXO list never fails on one; never spent. */
export interface StakeableLockOutput {
  kind: 'stakeable';
  locktime: bigint;
  output: SecpTransferOutput;
}

/**
 * Camino secp256k1fx.CrossTransferOutput (P type 8206): a TransferOutput naming a recipient on the
 * export's target chain. Anyone can leave one at any address with a P BaseTx; it is read so a UTXO
 * list never fails on one, and never spent by the local signer.
 */
export interface CrossTransferOutput {
  kind: 'cross.transfer';
  amount: bigint;
  owners: OutputOwners;
  /** 20-byte short ID on the target chain. */
  recipient: Uint8Array;
}

/** What a transaction output may hold (`avax.TransferableOut`). */
export type TransferableOut = SecpTransferOutput | LockedOutput | StakeableLockOutput;

/** What a UTXO may hold (`verify.State`). */
export type UtxoOutput = TransferableOut | SecpMintOutput | NftTransferOutput | NftMintOutput | CrossTransferOutput;

/** secp256k1fx.TransferInput (type 5): amount and which owner addresses sign. */
export interface SecpTransferInput {
  kind: 'secp.transfer';
  amount: bigint;
  /** Indices into the spent output's address list, sorted ascending and unique. */
  sigIndices: number[];
}

/** Camino locked.In (P type 8192): spends a locked.Out, naming its lock IDs. */
export interface LockedInput {
  kind: 'locked';
  lockIDs: LockIDs;
  input: SecpTransferInput;
}

export type TransferableIn = SecpTransferInput | LockedInput;

/** avax.UTXOID + Asset + the input. Sorted by (txID, outputIndex). */
export interface TransferableInput {
  txID: Uint8Array;
  outputIndex: number;
  assetID: Uint8Array;
  input: TransferableIn;
}

/** avax.Asset + the output. Sorted by assetID, then by the output's codec bytes. */
export interface TransferableOutput {
  assetID: Uint8Array;
  output: TransferableOut;
}

/** avax.UTXO as `getUTXOs` returns it (codec version + UTXOID + asset + output). */
export interface Utxo {
  txID: Uint8Array;
  outputIndex: number;
  assetID: Uint8Array;
  output: UtxoOutput;
}

/** avax.BaseTx: the metadata, outputs and inputs every X/P tx starts with. */
export interface BaseFields {
  networkID: number;
  blockchainID: Uint8Array;
  outputs: TransferableOutput[];
  inputs: TransferableInput[];
  /** At most 256 bytes. */
  memo: Uint8Array;
}

/** X: avm BaseTx (0). */
export interface XBaseTx extends BaseFields {
  chain: 'X';
  kind: 'base';
}

/** avm InitialState: one fx's genesis outputs of a new asset. */
export interface InitialState {
  fxIndex: number;
  outputs: UtxoOutput[];
}

/** X: CreateAssetTx (1). */
export interface XCreateAssetTx extends BaseFields {
  chain: 'X';
  kind: 'createAsset';
  name: string;
  symbol: string;
  denomination: number;
  states: InitialState[];
}

/** X: ImportTx (3) / P: ImportTx (17). */
export interface ImportTx extends BaseFields {
  chain: 'X' | 'P';
  kind: 'import';
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
}

/** X: ExportTx (4) / P: ExportTx (18). */
export interface ExportTx extends BaseFields {
  chain: 'X' | 'P';
  kind: 'export';
  destinationChain: Uint8Array;
  exportedOutputs: TransferableOutput[];
}

/** P: Camino BaseTx (8200). */
export interface PBaseTx extends BaseFields {
  chain: 'P';
  kind: 'base';
}

/** secp256k1fx.Input (P type 10) as an auth: the signature indices of a credential. */
export interface SigIndicesAuth {
  sigIndices: number[];
}

/** P: Camino DepositTx (8197); version 1 adds the creator and offer-owner auth fields. */
export interface DepositTx extends BaseFields {
  chain: 'P';
  kind: 'deposit';
  /** 0 = no upgrade prefix on the wire; 1 = the 8-byte UpgradeVersionID prefix and the three extra fields. */
  upgradeVersion: 0 | 1;
  depositOfferID: Uint8Array;
  /** Seconds (u32). */
  depositDuration: number;
  /** An fx.Owner: OutputOwners (type 11). */
  rewardsOwner: OutputOwners;
  /** Version 1 only. */
  depositCreatorAddress?: Uint8Array;
  depositCreatorAuth?: SigIndicesAuth;
  depositOfferOwnerAuth?: SigIndicesAuth;
}

/** P: UnlockDepositTx (8198). */
export interface UnlockDepositTx extends BaseFields {
  chain: 'P';
  kind: 'unlockDeposit';
}

/** ClaimTx's ClaimType (u64 on the wire). */
export const CLAIM_TYPES = {
  validatorReward: 0n,
  expiredDepositReward: 1n,
  allTreasury: 2n,
  activeDepositReward: 3n,
} as const;

/** txs.ClaimAmount: what is claimed from whom; `id` is a deposit tx ID or an owner ID (sha256 of the owner). */
export interface ClaimAmount {
  id: Uint8Array;
  type: bigint;
  amount: bigint;
  /** A secp256k1fx.Input (type 10): which credential signs for the claimable owner. */
  ownerAuth: SigIndicesAuth;
}

/** P: ClaimTx (8202): the claimed amount goes to the BaseTx outputs. */
export interface ClaimTx extends BaseFields {
  chain: 'P';
  kind: 'claim';
  claimables: ClaimAmount[];
}

/** caminoethvm EVMOutput: credits `amount` nCAM of `assetID` to a 0x address. */
export interface EvmOutput {
  address: Uint8Array;
  amount: bigint;
  assetID: Uint8Array;
}

/** caminoethvm EVMInput: debits a 0x address at a nonce. */
export interface EvmInput {
  address: Uint8Array;
  amount: bigint;
  assetID: Uint8Array;
  nonce: bigint;
}

/** C: UnsignedImportTx (0). */
export interface CImportTx {
  chain: 'C';
  kind: 'import';
  networkID: number;
  blockchainID: Uint8Array;
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
  outputs: EvmOutput[];
}

/** C: UnsignedExportTx (1). */
export interface CExportTx {
  chain: 'C';
  kind: 'export';
  networkID: number;
  blockchainID: Uint8Array;
  destinationChain: Uint8Array;
  inputs: EvmInput[];
  exportedOutputs: TransferableOutput[];
}

export type UnsignedTx =
  | XBaseTx
  | XCreateAssetTx
  | ImportTx
  | ExportTx
  | PBaseTx
  | DepositTx
  | UnlockDepositTx
  | ClaimTx
  | CImportTx
  | CExportTx;

/** secp256k1fx.Credential (type 9): 65-byte [r ‖ s ‖ v] signatures in sigIndices order. */
export interface Credential {
  signatures: Uint8Array[];
}

export interface SignedTx {
  unsigned: UnsignedTx;
  credentials: Credential[];
}

/** A decoded signed tx with the byte slices and hashes the node derives from it. */
export interface DecodedSignedTx {
  tx: SignedTx;
  unsignedBytes: Uint8Array;
  signedBytes: Uint8Array;
  /** sha256(signedBytes) in cb58: the node's tx ID. */
  txID: string;
  /** sha256(unsignedBytes): what each credential signs. */
  unsignedHash: Uint8Array;
}

/** One input as a preview shows it (strings ready to print; amounts stay bigint). */
export interface InputView {
  /** `txID:outputIndex` of the UTXO spent (for C export inputs: the 0x address). */
  utxo: string;
  txID: string;
  outputIndex: number;
  assetID: string;
  amount: bigint;
  sigIndices: number[];
  /** Present on a locked.In. */
  lock?: { depositTxID: string | null; bondTxID: string | null };
  /** Present on the EVM side of a C export. */
  evm?: { address: string; nonce: bigint };
  /** true for an ImportTx's imported input. */
  imported: boolean;
}

/** One output as a preview shows it. */
export interface OutputView {
  assetID: string;
  amount: bigint;
  /** `X-hrp1…`/`P-hrp1…` on X/P (the destination chain's letter for exported outputs), `0x…` for EVM outputs. */
  addresses: string[];
  locktime: bigint;
  threshold: number;
  lock?: { depositTxID: string | null; bondTxID: string | null };
  /** true for an ExportTx's exported output. */
  exported: boolean;
}

/** Everything a human must see before approving the bytes, decoded from them. */
export interface TxView {
  chain: TxChain;
  kind: UnsignedTx['kind'];
  networkID: number;
  blockchainID: string;
  sourceChain?: string;
  destinationChain?: string;
  inputs: InputView[];
  outputs: OutputView[];
  /** Memo bytes as hex (0x…); the text form is the caller's to quote. */
  memo: string;
  /** Per asset (cb58): inputs − outputs, i.e. what the tx burns. */
  burned: Record<string, bigint>;
  deposit?: { depositOfferID: string; depositDuration: number; rewardsOwner: { addresses: string[]; locktime: bigint; threshold: number } };
  claimables?: { id: string; type: bigint; amount: bigint }[];
}
