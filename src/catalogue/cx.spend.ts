import { z } from 'zod';
import { amount, ASSET_UNITS, assetIdOrAlias, cb58Id, chainIdOrAlias, chainSelector, compact, hexAddress, xAddress } from '../core/fields.js';
import { defineTool, type ToolDef } from '../core/tool.js';
import { importPlan, feeLine, onChain, resolveAsset, shownAmount, txFees, userXAddresses } from '../spend/plan.js';
import { decodeTx, issuedText, TxOut } from '../spend/result.js';
import { uint64 } from '../core/fields.js';
import { issueSignedTx } from './xvm.spend.js';

/** Contract chain atomic transactions, endpoint /ext/bc/C/cx (spec document 2). Spend tier. */

const STATUS = 'cx_getAtomicTxStatus';
const baseFee = uint64('Base fee in wei for the atomic transaction; default: the node suggests one.').optional();

export const cxSpendTools: ToolDef[] = [
  defineTool({
    name: 'cx_export',
    title: 'Export from C to X',
    description: 'Step 1 of moving funds from the C-Chain to X; complete it with xvm_import (sourceChain "C", same `to`).',
    tier: 'spend',
    toolset: 'cx',
    input: z.strictObject({
      to: xAddress('X address that receives the funds after xvm_import.'),
      amount: amount(ASSET_UNITS, { field: 'assetID' }),
      assetID: assetIdOrAlias('Asset to export; the native asset by its ID or alias.'),
      baseFee,
      chain: chainSelector('C'),
    }),
    output: TxOut,
    request: {
      kind: 'rpc',
      endpoint: 'cx',
      method: 'cx.export',
      credentials: true,
      params: (i) => compact({ to: i.to, amount: i.amount, assetID: i.assetID, baseFee: i.baseFee }),
    },
    decode: decodeTx,
    plan: async (i, ctx) => {
      const network = await ctx.network();
      const asset = await resolveAsset(ctx, i.assetID, network);
      const { txFee } = await txFees(ctx);
      return {
        lines: [
          `Network: ${network.networkID} (prefix ${network.hrp}), chain C`,
          "From: the keystore user's C-Chain addresses",
          `To: ${i.to} (completed by xvm_import with sourceChain "C")`,
          `Amount: ${asset.show(i.amount)}`,
          `${feeLine(txFee, network)}; atomic base fee ${i.baseFee === undefined ? 'suggested by the node' : `${i.baseFee} wei`}`,
          'Balance after: unknown here (check eth_getBalance of your C address).',
        ],
        details: { to: i.to, amount: i.amount.toString() },
        fee: txFee,
      };
    },
    limits: (i) => ({ amount: i.amount, recipients: [i.to] }),
    summarize: async (o, i, ctx) =>
      issuedText(`Exported ${await shownAmount(ctx, i.assetID, i.amount)} from C to ${i.to}`, o.txID, STATUS, [
        `Not done yet: complete the transfer with xvm_import {"to": "${i.to}", "sourceChain": "C"}.`,
      ]),
  }),
  defineTool({
    name: 'cx_import',
    title: 'Import into C',
    description: 'Step 2 of moving funds from X to the C-Chain: import what xvm_export sent to C, crediting a hex address.',
    tier: 'spend',
    toolset: 'cx',
    input: z.strictObject({
      to: hexAddress('C-Chain hex address (0x...) of the key the export named; the user must control it.'),
      sourceChain: chainIdOrAlias('Chain the funds come from: X or a chain ID.'),
      txID: cb58Id('Local signer: the export whose outputs to import; default everything waiting.').optional(),
      baseFee,
      chain: chainSelector('C'),
    }),
    output: TxOut,
    request: {
      kind: 'rpc',
      endpoint: 'cx',
      method: 'cx.import',
      credentials: true,
      params: (i) => compact({ to: i.to, sourceChain: i.sourceChain, baseFee: i.baseFee }),
    },
    decode: decodeTx,
    plan: async (i, ctx) =>
      importPlan(ctx, {
        endpoint: 'cx',
        to: i.to,
        sourceChain: i.sourceChain,
        chain: i.chain,
        waitingOn: (await userXAddresses(ctx)).map((a) => onChain(a, 'C')),
        fee: () => `Fee: taken from the imported amount (atomic base fee ${i.baseFee === undefined ? 'suggested by the node' : `${i.baseFee} wei`})`,
      }),
    limits: (i) => ({ recipients: [i.to], own: [i.to] }),
    summarize: (o, i) => issuedText(`Imported funds from ${i.sourceChain} to ${i.to}`, o.txID, STATUS),
  }),
  issueSignedTx({
    name: 'cx_issueTx',
    title: 'Issue a signed atomic C tx',
    description: 'Issue an already signed atomic transaction on the C-Chain. Prefer cx_export and cx_import; this one cannot show what the bytes do.',
    toolset: 'cx',
    endpoint: 'cx',
    chain: 'C',
    done: 'Signed atomic transaction',
    statusTool: STATUS,
  }),
];
