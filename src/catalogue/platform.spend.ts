import { z } from 'zod';
import { ChainMcpError, InputError } from '../errors.js';
import type { ByteEncoding } from '../codec/index.js';
import { amount, cb58Id, compact, inputEncoding, nodeId, pAddress, xAddress } from '../core/fields.js';
import { defineTool, type ToolContext, type ToolDef } from '../core/tool.js';
import { addressStateField, changeAddrField, fromField, stateName } from '../spend/fields.js';
import {
  changeLine,
  checkDelegation,
  checkPeriod,
  endsWithLine,
  feeLine,
  findValidator,
  headLines,
  MIN_DELEGATION_FEE,
  onChain,
  nodeHex,
  payloadBytes,
  PRIMARY_NETWORK,
  pUnlocked,
  requiredValidatorStake,
  txFees,
  unixSeconds,
  userXAddresses,
} from '../spend/plan.js';
import { decodeTx, issuedText, TxOut } from '../spend/result.js';
import { recipientsOf } from '../spend/guard.js';
import { nativeAmount } from '../summarize/format.js';
import type { NetworkInfo } from '../context/network.js';
import { strangerLine } from '../summarize/stranger.js';
import { caminoRpc } from '../context/camino.js';

/** Platform chain transactions, endpoint /ext/P (spec document 3). Spend tier: preview, then confirm. */

const from = fromField(['P']);
const changeAddr = changeAddrField(['P']);
const p = <I>(method: string, params: (i: I) => Record<string, unknown>) => ({ kind: 'rpc' as const, endpoint: 'platform' as const, method, credentials: true, params });
const startTime = unixSeconds('Start, Unix seconds; must be in the future.');
const endTime = unixSeconds('End, Unix seconds.');
const show = (v: bigint, n: NetworkInfo) => nativeAmount(v, n).display;

const feeRate = z
  .number()
  .min(0)
  .max(100)
  .refine((v) => /^\d+(\.\d{1,4})?$/.test(String(v)), 'at most 4 decimal places')
  .refine((v) => v >= MIN_DELEGATION_FEE, `the minimum delegation fee is ${MIN_DELEGATION_FEE} percent`)
  .describe('Percent of delegators\' rewards the validator keeps: 2 to 100, at most 4 decimals.');

/** The user's unlocked P balance: `from`, else the P form of the keystore user's addresses. */
async function pBefore(ctx: ToolContext, network: NetworkInfo, fromP?: string[]): Promise<bigint | undefined> {
  const addresses = fromP ?? (await userXAddresses(ctx)).map((a) => onChain(a, 'P'));
  return pUnlocked(ctx, addresses, network.assetID);
}

/** The stake leaves the user's control until the end of the period. */
const stakeLimits = (i: { stakeAmount: bigint; rewardAddress: string; changeAddr?: string }) => ({
  amount: i.stakeAmount,
  recipients: recipientsOf(i.rewardAddress, i.changeAddr),
  own: recipientsOf(i.changeAddr),
});

const stakerFollow = (nodeID: string) => `Follow it with platform_getPendingValidators {"nodeIDs": ["${nodeID}"]}: it is pending until its start time.`;

/** caminogo txs/camino_claim_tx.go ClaimType (a plain uint64: a JSON number). */
const CLAIM_TYPES = { validator: 0, expiredDeposit: 1, deposit: 3 } as const;
interface ClaimInput {
  claims: Array<{ kind: keyof typeof CLAIM_TYPES; depositTxID?: string; owner?: string; amount: bigint }>;
  to: string;
  from?: string[];
}

export const platformSpendTools: ToolDef[] = [
  defineTool({
    name: 'platform_addValidator',
    title: 'Add a Primary Network validator',
    description: "Stake the network's fixed validator stake to make a node a validator for 2 weeks to 1 year. The stake is locked until the end; no fee.",
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      nodeID: nodeId('Node to validate (NodeID-...); it must be registered with the wallet address.'),
      startTime,
      endTime: unixSeconds('End, Unix seconds; 2 weeks to 1 year after startTime.'),
      stakeAmount: amount("Stake, nCAM or e.g. 2000 CAM; must equal the network's validator stake.", 'native'),
      rewardAddress: pAddress('P address that receives the reward.'),
      nodeOwnerAddress: pAddress('Camino: P address that registered the node (the keystore user signs for it); required in lock mode.').optional(),
      delegationFeeRate: feeRate,
      from,
      changeAddr,
    }),
    output: TxOut,
    request: p(
      'platform.addValidator',
      (i: { nodeID: string; startTime: number; endTime: number; stakeAmount: bigint; rewardAddress: string; nodeOwnerAddress?: string; delegationFeeRate: number; from?: string[]; changeAddr?: string }) =>
      compact({
        nodeID: i.nodeID,
        startTime: i.startTime,
        endTime: i.endTime,
        stakeAmount: i.stakeAmount,
        nodeOwnerAddress: i.nodeOwnerAddress,
        rewardAddress: i.rewardAddress,
        delegationFeeRate: i.delegationFeeRate,
        from: i.from,
        changeAddr: i.changeAddr,
      }),
    ),
    decode: decodeTx,
    validate: (i, now) => checkPeriod(i.startTime, i.endTime, now),
    plan: async (i, ctx) => {
      const network = await ctx.network();
      if (network.lockModeBondDeposit === true && i.nodeOwnerAddress === undefined) {
        // caminogo service.go AddValidator builds a CaminoAddValidatorTx signed for the node owner.
        throw new InputError('nodeOwnerAddress', 'required on this network (lockModeBondDeposit): the P address that registered the node with platform.registerNode');
      }
      const required = await requiredValidatorStake(ctx, network);
      if (required !== undefined && i.stakeAmount !== required) {
        throw new InputError('stakeAmount', `must equal the network's validator stake ${show(required, network)} (${required}); got ${i.stakeAmount}`);
      }
      const before = await pBefore(ctx, network, i.from);
      return {
        lines: [
          ...headLines(network, i.from, 'P'),
          `Validator: ${i.nodeID} from ${new Date(i.startTime * 1000).toISOString()} to ${new Date(i.endTime * 1000).toISOString()}`,
          `Stake locked: ${show(i.stakeAmount, network)}${required === undefined ? ' (the node did not say the required stake; it will check)' : ''}`,
          `Reward to: ${i.rewardAddress}; delegation fee ${i.delegationFeeRate} %`,
          ...(i.nodeOwnerAddress ? [`Node owner: ${i.nodeOwnerAddress} (signs for the node; gains nothing)`] : []),
          await changeLine(ctx, i.changeAddr),
          'Fee: none (staking transactions have no fee)',
          endsWithLine(before, i.stakeAmount, (v) => show(v, network)),
        ],
        details: { nodeID: i.nodeID, stakeAmount: i.stakeAmount.toString() },
      };
    },
    limits: stakeLimits,
    summarize: (o, i) => issuedText(`Added validator ${i.nodeID}`, o.txID, stakerFollow(i.nodeID)),
  }),
  defineTool({
    name: 'platform_addDelegator',
    title: 'Delegate stake to a validator',
    description: "Lock stake on a validator for a period inside its validation period; earns a reward minus the validator's fee. No fee; cannot be undone.",
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      nodeID: nodeId('Validator to delegate to (NodeID-...).'),
      startTime,
      endTime: unixSeconds("End, Unix seconds; inside the validator's period."),
      stakeAmount: amount('Stake, nCAM or e.g. 25 CAM; at least the minimum delegator stake.', 'native'),
      rewardAddress: pAddress('P address that receives the reward.'),
      from,
      changeAddr,
    }),
    output: TxOut,
    request: p('platform.addDelegator', (i: { nodeID: string; startTime: number; endTime: number; stakeAmount: bigint; rewardAddress: string; from?: string[]; changeAddr?: string }) =>
      compact({
        nodeID: i.nodeID,
        startTime: i.startTime,
        endTime: i.endTime,
        stakeAmount: i.stakeAmount,
        rewardAddress: i.rewardAddress,
        from: i.from,
        changeAddr: i.changeAddr,
      }),
    ),
    decode: decodeTx,
    validate: (i, now) => checkPeriod(i.startTime, i.endTime, now, false),
    plan: async (i, ctx) => {
      const network = await ctx.network();
      if (network.lockModeBondDeposit === true) {
        // caminogo camino_tx_executor.go AddDelegatorTx: "wrong transaction type" in lock mode.
        throw new ChainMcpError('policy', `Refused: network ${network.networkID} runs in bond/deposit lock mode (lockModeBondDeposit), where a node refuses every delegation. Nothing was sent.`, {
          hint: 'On Camino, stake by running a validator (platform_addValidator) or earn with a deposit offer (platform_getAllDepositOffers).',
        });
      }
      const { validator, cap } = await checkDelegation(ctx, i, network);
      const before = await pBefore(ctx, network, i.from);
      return {
        lines: [
          ...headLines(network, i.from, 'P'),
          `Delegates to: ${i.nodeID} (validating ${validator.startTime}-${validator.endTime}) from ${new Date(i.startTime * 1000).toISOString()} to ${new Date(i.endTime * 1000).toISOString()}`,
          `Stake locked: ${show(i.stakeAmount, network)}; validator weight after: ${show(validator.stake + validator.delegated + i.stakeAmount, network)} of cap ${show(cap, network)}`,
          `Reward to: ${i.rewardAddress}`,
          await changeLine(ctx, i.changeAddr),
          'Fee: none (delegation has no fee)',
          endsWithLine(before, i.stakeAmount, (v) => show(v, network)),
        ],
        details: { nodeID: i.nodeID, stakeAmount: i.stakeAmount.toString(), cap: cap.toString() },
      };
    },
    limits: stakeLimits,
    summarize: (o, i) => issuedText(`Delegated to ${i.nodeID}`, o.txID, stakerFollow(i.nodeID)),
  }),
  defineTool({
    name: 'platform_addSubnetValidator',
    title: 'Add a subnet validator',
    description: 'Make a Primary Network validator also validate a subnet, with a weight, for a period inside its Primary Network period.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      nodeID: nodeId(),
      subnetID: cb58Id('Subnet ID (cb58); not the Primary Network.').refine((v) => v !== PRIMARY_NETWORK, 'must be a subnet, not the Primary Network'),
      startTime,
      endTime,
      weight: amount('Sampling weight on the subnet.'),
      from,
      changeAddr,
    }),
    output: TxOut,
    request: p('platform.addSubnetValidator', (i: { nodeID: string; subnetID: string; startTime: number; endTime: number; weight: bigint; from?: string[]; changeAddr?: string }) =>
      compact({ nodeID: i.nodeID, subnetID: i.subnetID, startTime: i.startTime, endTime: i.endTime, weight: i.weight, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    validate: (i, now) => checkPeriod(i.startTime, i.endTime, now, false),
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const primary = await findValidator(ctx, i.nodeID);
      if (!primary) throw new InputError('nodeID', `${i.nodeID} does not validate the Primary Network; it must for the whole subnet period`);
      if (i.startTime < primary.startTime || i.endTime > primary.endTime) {
        throw new InputError('startTime', `the subnet period must lie inside the node's Primary Network period ${primary.startTime}-${primary.endTime}`);
      }
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          ...headLines(network, i.from, 'P'),
          `Subnet validator: ${i.nodeID} on ${i.subnetID}, weight ${i.weight}, ${i.startTime}-${i.endTime}`,
          await changeLine(ctx, i.changeAddr),
          feeLine(txFee, network),
        ],
        details: { nodeID: i.nodeID, subnetID: i.subnetID },
        fee: txFee,
      };
    },
    limits: (i) => ({ recipients: recipientsOf(i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => issuedText(`Added ${i.nodeID} to subnet ${i.subnetID}`, o.txID, `Follow it with platform_getPendingValidators {"subnetID": "${i.subnetID}"}.`),
  }),
  defineTool({
    name: 'platform_createSubnet',
    title: 'Create a subnet',
    description: 'Create a subnet controlled by keys: adding validators needs `threshold` signatures of `controlKeys`. The subnet ID is the txID.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      controlKeys: z.array(pAddress()).min(1).max(64).describe('P addresses that control the subnet.'),
      threshold: z.number().int().min(1).describe('Signatures needed; 1 to the number of control keys.'),
      from,
      changeAddr,
    }),
    output: TxOut,
    request: p('platform.createSubnet', (i: { controlKeys: string[]; threshold: number; from?: string[]; changeAddr?: string }) =>
      compact({ controlKeys: i.controlKeys, threshold: i.threshold, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    validate: (i) => {
      if (i.threshold > i.controlKeys.length) throw new InputError('threshold', `must be between 1 and the number of control keys (${i.controlKeys.length})`);
    },
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      return {
        lines: [...headLines(network, i.from, 'P'), `Subnet: ${i.threshold} of ${i.controlKeys.join(', ')}`, await changeLine(ctx, i.changeAddr), feeLine(txFee, network)],
        details: { threshold: i.threshold, controlKeys: i.controlKeys.length },
        fee: txFee,
      };
    },
    limits: (i) => ({ recipients: recipientsOf(i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o) => issuedText('Created a subnet', o.txID, `The subnet ID is ${o.txID}; see it with platform_getSubnets {"ids": ["${o.txID}"]}.`),
  }),
  defineTool({
    name: 'platform_createBlockchain',
    title: 'Create a blockchain in a subnet',
    description: 'Create a new chain of the asset VM or timestamp VM in a subnet (not the Primary Network); genesis from the VM\'s buildGenesis.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      subnetID: cb58Id('Subnet that validates the chain (cb58); not the Primary Network.').refine((v) => v !== PRIMARY_NETWORK, 'must be a subnet, not the Primary Network'),
      vmID: z.string().min(1).max(100).describe('VM ID or alias, e.g. xvm.'),
      name: z.string().min(1).max(128).describe('Chain name.'),
      genesisData: z.string().min(1).max(1_000_000).describe('Genesis bytes in `encoding`, e.g. from xvm_buildGenesis.'),
      encoding: inputEncoding('genesisData'),
      from,
      changeAddr,
    }),
    output: TxOut,
    request: p('platform.createBlockchain', (i: { subnetID: string; vmID: string; name: string; genesisData: string; encoding?: ByteEncoding; from?: string[]; changeAddr?: string }) => {
      const genesis = nodeHex('genesisData', i.genesisData, i.encoding);
      return compact({ subnetID: i.subnetID, vmID: i.vmID, name: i.name, genesisData: genesis.data, encoding: genesis.encoding, from: i.from, changeAddr: i.changeAddr });
    }),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          ...headLines(network, i.from, 'P'),
          `Blockchain: a new chain in subnet ${i.subnetID}`,
          await changeLine(ctx, i.changeAddr),
          feeLine(txFee, network),
          strangerLine('Chain name', 'the requester', i.name, 128),
          strangerLine('VM', 'the requester', i.vmID, 100),
        ],
        details: { subnetID: i.subnetID, vmID: i.vmID, name: i.name },
        fee: txFee,
      };
    },
    validate: (i) => void payloadBytes('genesisData', i.genesisData, i.encoding),
    limits: (i) => ({ recipients: recipientsOf(i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) => issuedText(`Created blockchain ${i.name}`, o.txID, `Follow it with platform_getBlockchainStatus {"blockchainID": "${o.txID}"}.`),
  }),
  defineTool({
    name: 'platform_exportNative',
    title: 'Export native from P to X',
    description: 'Step 1 of moving native units from P to X; complete it with xvm_import (sourceChain "P", same `to`).',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({ amount: amount(undefined, 'native'), to: xAddress('X address that receives the funds after xvm_import.'), from, changeAddr }),
    output: TxOut,
    request: p('platform.exportNative', (i: { amount: bigint; to: string; from?: string[]; changeAddr?: string }) =>
      compact({ amount: i.amount, to: i.to, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      const before = await pBefore(ctx, network, i.from);
      return {
        lines: [
          ...headLines(network, i.from, 'P'),
          `To: ${i.to} (completed by xvm_import with sourceChain "P")`,
          await changeLine(ctx, i.changeAddr),
          `Amount: ${show(i.amount, network)}`,
          feeLine(txFee, network),
          endsWithLine(before, i.amount + txFee, (v) => show(v, network)),
        ],
        details: { to: i.to, amount: i.amount.toString() },
        fee: txFee,
      };
    },
    limits: (i) => ({ amount: i.amount, recipients: recipientsOf(i.to, i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) =>
      issuedText(`Exported ${i.amount} native units from P to ${i.to}`, o.txID, `Check the atomic funds with xvm_getUTXOs {"addresses": ["${i.to}"], "sourceChain": "P"}.`, [
        `Not done yet: complete the transfer with xvm_import {"to": "${i.to}", "sourceChain": "P"}.`,
      ]),
  }),
  defineTool({
    name: 'platform_claim',
    title: 'Claim rewards',
    description: 'Claim P-Chain rewards (Camino): a running deposit\'s reward, or an owner\'s validator or expired-deposit rewards, to a P address.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      claims: z
        .array(
          z.strictObject({
            kind: z.enum(['deposit', 'validator', 'expiredDeposit']).describe('deposit: a running deposit (depositTxID); validator or expiredDeposit: the owner\'s (owner).'),
            depositTxID: cb58Id('The deposit (kind deposit).').optional(),
            owner: pAddress('The reward owner (threshold 1), kinds validator and expiredDeposit.').optional(),
            amount: amount(undefined, 'native'),
          }),
        )
        .min(1)
        .max(16)
        .describe('What to claim, amounts as platform_getDeposits / platform_getClaimables show them.'),
      to: pAddress('P address that receives the rewards; must be your own.'),
      from,
    }),
    output: TxOut,
    request: p('platform.claim', (i: ClaimInput) => ({
      ...(i.from ? { from: i.from } : {}),
      claimables: i.claims.map((c) => ({
        depositTxID: c.depositTxID ?? '',
        claimableOwner: { locktime: '0', threshold: c.owner ? '1' : '0', addresses: c.owner ? [c.owner] : [] },
        amount: c.amount.toString(),
        claimType: CLAIM_TYPES[c.kind],
      })),
      claimTo: { locktime: '0', threshold: '1', addresses: [i.to] },
      change: { locktime: '0', threshold: '1', addresses: [i.to] },
    })),
    decode: decodeTx,
    validate: (i) => {
      i.claims.forEach((c, n) => {
        if (c.kind === 'deposit' && !c.depositTxID) throw new InputError(`claims[${n}].depositTxID`, 'required for kind deposit');
        if (c.kind !== 'deposit' && !c.owner) throw new InputError(`claims[${n}].owner`, `required for kind ${c.kind}`);
      });
    },
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      // What the node holds claimable now: a claim above it is refused before anything is sent.
      const deposits = i.claims.filter((c) => c.kind === 'deposit').map((c) => c.depositTxID!);
      const owners = [...new Set(i.claims.filter((c) => c.kind !== 'deposit').map((c) => c.owner!))];
      const [dep, own] = await Promise.all([
        deposits.length ? caminoRpc(ctx, 'platform.getDeposits', { depositTxIDs: deposits }) : undefined,
        owners.length ? caminoRpc(ctx, 'platform.getClaimables', { owners: owners.map((o) => ({ locktime: '0', threshold: '1', addresses: [o] })) }) : undefined,
      ]);
      const available = (c: ClaimInput['claims'][number]): bigint => {
        if (c.kind === 'deposit') {
          const r = (dep ?? {}) as { deposits?: Array<{ depositTxID?: string }>; availableRewards?: unknown[] };
          const at = (r.deposits ?? []).findIndex((d) => d.depositTxID === c.depositTxID);
          return at < 0 ? 0n : BigInt(String(r.availableRewards?.[at] ?? '0'));
        }
        const r = (own ?? {}) as { claimables?: Array<{ rewardOwner?: { addresses?: string[] }; validatorRewards?: unknown; expiredDepositRewards?: unknown }> };
        const found = (r.claimables ?? []).find((x) => x.rewardOwner?.addresses?.length === 1 && x.rewardOwner.addresses[0] === c.owner);
        return BigInt(String((c.kind === 'validator' ? found?.validatorRewards : found?.expiredDepositRewards) ?? '0'));
      };
      const lines = [...headLines(network, i.from, 'P'), `To: ${i.to} (receives the rewards; change goes there too)`];
      let total = 0n;
      for (const [n, c] of i.claims.entries()) {
        const can = available(c);
        if (c.amount > can) throw new InputError(`claims[${n}].amount`, `${show(c.amount, network)} is more than the ${show(can, network)} claimable now`);
        total += c.amount;
        lines.push(`Claim: ${show(c.amount, network)} of ${c.kind === 'deposit' ? `deposit ${c.depositTxID}'s reward` : `${c.owner}'s ${c.kind === 'validator' ? 'validator' : 'expired-deposit'} rewards`} (${show(can, network)} claimable now)`);
      }
      lines.push(`Total claimed: ${show(total, network)}`, feeLine(txFee, network), 'The fee is paid from the unlocked funds of the keystore user\'s addresses.');
      return { lines, details: { to: i.to, amount: total.toString(), claims: i.claims.map((c) => ({ ...c, amount: c.amount.toString() })) }, fee: txFee };
    },
    // Rewards come in; only the fee leaves, and the destination must be the user's own.
    limits: (i) => ({ amount: 0n, recipients: recipientsOf(i.to), own: recipientsOf(i.to) }),
    summarize: (o, i) => issuedText(`Claimed rewards to ${i.to}`, o.txID, `Check it with platform_getTxStatus {"txID": "${o.txID}"}, then platform_getBalance {"addresses": ["${i.to}"]}.`),
  }),
  defineTool({
    name: 'platform_deposit',
    title: 'Deposit into an offer',
    description: 'Lock CAM in an open deposit offer for a duration to earn its interest (Camino). Needs the local signer.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      offerID: cb58Id('Deposit offer ID (platform_getAllDepositOffers).'),
      amount: amount(undefined, 'native'),
      duration: z.number().int().min(1).max(0xffffffff).describe('Seconds, within the offer\'s min and max duration.'),
      rewardAddress: pAddress('P address that may claim the rewards; default the depositor.').optional(),
      from,
    }),
    output: TxOut,
    localOnly: 'a deposit',
    // The amount is locked until the deposit unlocks: it leaves the user's control for that long.
    limits: (i) => ({ amount: i.amount, recipients: recipientsOf(i.rewardAddress) }),
    summarize: (o) => issuedText('Deposited', o.txID, `Check it with platform_getTxStatus {"txID": "${o.txID}"}.`),
  }),
  defineTool({
    name: 'platform_unlockDeposit',
    title: 'Unlock deposits',
    description: 'Return the unlockable part of deposits (in or after their unlock period) to spendable CAM (Camino). Needs the local signer.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({ depositTxIDs: z.array(cb58Id('Deposit tx ID.')).min(1).max(64).describe('Deposits to unlock (account_overview lists them).'), from }),
    output: TxOut,
    localOnly: 'an unlock',
    limits: () => ({ amount: 0n, recipients: [] }),
    summarize: (o) => issuedText('Unlocked deposits', o.txID, `Check it with platform_getTxStatus {"txID": "${o.txID}"}.`),
  }),
  defineTool({
    name: 'platform_setAddressState',
    title: 'Set or clear an address state flag',
    description: 'Set (remove=false) or clear (remove=true) a role or KYC flag of a P address. Needs the right role: admin for roles, KYC role for KYC flags.',
    tier: 'spend',
    toolset: 'platform',
    input: z.strictObject({
      address: pAddress('P address whose flag changes.'),
      state: addressStateField,
      remove: z.boolean().default(false).describe('false sets the flag (default), true clears it.'),
      from,
      changeAddr,
    }),
    output: TxOut,
    request: p('platform.setAddressState', (i: { address: string; state: number; remove: boolean; from?: string[]; changeAddr?: string }) =>
      compact({ address: i.address, state: i.state, remove: i.remove, from: i.from, changeAddr: i.changeAddr }),
    ),
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          ...headLines(network, i.from, 'P'),
          `${i.remove ? 'Clears' : 'Sets'} ${stateName(i.state)} (${i.state}) on ${i.address}`,
          await changeLine(ctx, i.changeAddr),
          feeLine(txFee, network),
        ],
        details: { address: i.address, state: i.state, remove: i.remove },
        fee: txFee,
      };
    },
    limits: (i) => ({ recipients: recipientsOf(i.address, i.changeAddr), own: recipientsOf(i.changeAddr) }),
    summarize: (o, i) =>
      issuedText(`${i.remove ? 'Cleared' : 'Set'} ${stateName(i.state)} on ${i.address}`, o.txID, `Check it with platform_getAddressStates {"address": "${i.address}"}.`),
  }),
];
