// sy_vc_router: a synthesizable input-VC wormhole router for a 2-D mesh or torus with the
// semantics of Switchyard's staged pipeline (sy::InputVcRouter with router.pipeline rc = va = sa
// = st = lt = 1, up to PC strict priority classes (router.priority_classes, 0 the highest),
// round-robin within a class, separable input-first VC and switch allocators). The port
// contract (what one cycle means, when a flit or a credit counts) is in rtl/README.md, "The
// router's port contract"; in short, cycle c of the clock is the model's cycle c, and
//   * a flit on in_*[p] in cycle c is the flit the model's link delivers at c + 1 (it is written
//     into its VC at the edge that ends c, and may bid for the switch in c + 1);
//   * a credit on cr_in_*[o] in cycle c is one the model makes usable at c: it counts in the
//     allocations of cycle c;
//   * out_*[o] (registered) in cycle c: a flit that won switch allocation in c - OUT_STAGES; it
//     arrives at the next router at c + 1 (OUT_STAGES = sa + st + lt - 1 = 2);
//   * cr_out_*[p] (registered) in cycle c: a credit for a flit that left input p in
//     c - credit_delay_i; usable upstream in c.
// So two routers connect with plain wires (out -> in, cr_out -> cr_in) and no combinational path
// crosses a router.
//
// Per cycle (all decisions read the registered state, with this cycle's incoming credits):
//  RC  an idle VC whose buffer holds a header: its output port (sy_route_dor_mesh; on a torus
//      sy_route_dor_torus, with the output VCs of its dateline class); routed at the edge.
//      (The model: route computation rc = 1 cycle after arrival.)
//  VA  every routed VC requests the lowest free output VC of its port (of its dateline class);
//      each output VC grants one requester of the highest class requesting it, round-robin
//      over (input port, VC) with one pointer whatever the class (prio_rr_arbiter, one per
//      output VC, on the requests of that class: sy::VcAllocator); the winner holds it from
//      the edge on (state active).
//  SA  each input's arbiter picks one of its active VCs with a flit and a downstream credit; each
//      output's arbiter picks one of the inputs that bid for it; both strict by class (the
//      packet's, carried by the VC), round-robin within it with a pointer per class (sy::Arbiter);
//      pointers move only for grants that are used. The granted flit leaves its buffer at the
//      edge, its credit goes back credit_delay_i cycles later, and it crosses the switch (ST)
//      and the link (LT) in the next two cycles. A tail frees the output VC at once
//      (wait_tail_credit_i = 0) or once every credit is back (1), as router.wait_for_tail_credit.
module sy_vc_router #(
  parameter int unsigned NP = 4,         // network ports (x+, x-, y+, y-)
  parameter int unsigned NI = 1,         // injection inputs (ports NP .. NP+NI-1)
  parameter int unsigned NE = 1,         // ejection outputs (port NP); only 1 is implemented
  parameter int unsigned V = 2,          // VCs per port
  parameter int unsigned DEPTH = 4,      // flits per VC
  parameter int unsigned FLIT_W = 64,    // payload bits; a header's [CW-1:0] is the destination's
                                         // x, [2*CW-1:CW] its y, [2*CW+PCW-1:2*CW] its class
  parameter int unsigned CW = 4,         // coordinate width
  parameter int unsigned PC = 1,         // priority classes it handles (classes 0 .. PC-1)
  parameter int unsigned OUT_STAGES = 2, // registers from a switch grant to out_* (sa+st+lt-1)
  parameter int unsigned MAX_CREDIT_DELAY = 4,
  localparam int unsigned NIN = NP + NI,
  localparam int unsigned NOUT = NP + NE,
  localparam int unsigned VW = (V > 1) ? $clog2(V) : 1,
  localparam int unsigned OW = (NOUT > 1) ? $clog2(NOUT) : 1,
  localparam int unsigned IW = (NIN > 1) ? $clog2(NIN) : 1,
  localparam int unsigned CRW = $clog2(DEPTH + 1),
  localparam int unsigned CDW = $clog2(MAX_CREDIT_DELAY + 1),
  localparam int unsigned PCW = (PC > 1) ? $clog2(PC) : 1
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,            // asynchronous, active low
  // Static configuration (held for the whole run).
  input  logic [CW-1:0]                  x_i,               // this router's coordinates
  input  logic [CW-1:0]                  y_i,
  input  logic                           wait_tail_credit_i,
  input  logic [CDW-1:0]                 credit_delay_i,    // 1 .. MAX_CREDIT_DELAY
  // A 2-D torus (static): wraparound links, routed with dateline VC classes
  // (sy_route_dor_torus); the rings' last coordinates (k - 1) and routing.tie_break (0
  // positive, 1 negative, 2 balanced). With torus_i low the rest is ignored (a mesh).
  input  logic                           torus_i,
  input  logic [CW-1:0]                  x_last_i,
  input  logic [CW-1:0]                  y_last_i,
  input  logic [1:0]                     tie_break_i,
  // Flits in, per input port.
  input  logic [NIN-1:0]                 in_valid_i,
  input  logic [NIN-1:0][VW-1:0]         in_vc_i,
  input  logic [NIN-1:0]                 in_head_i,
  input  logic [NIN-1:0]                 in_tail_i,
  input  logic [NIN-1:0][FLIT_W-1:0]     in_data_i,
  // Credits in, per output port (from the downstream router or the ejection NI).
  input  logic [NOUT-1:0]                cr_in_valid_i,
  input  logic [NOUT-1:0][VW-1:0]        cr_in_vc_i,
  // Flits out, per output port.
  output logic [NOUT-1:0]                out_valid_o,
  output logic [NOUT-1:0][VW-1:0]        out_vc_o,
  output logic [NOUT-1:0]                out_head_o,
  output logic [NOUT-1:0]                out_tail_o,
  output logic [NOUT-1:0][FLIT_W-1:0]    out_data_o,
  // Credits out, per input port (to the upstream router or the injecting NI).
  output logic [NIN-1:0]                 cr_out_valid_o,
  output logic [NIN-1:0][VW-1:0]         cr_out_vc_o,
  // Observation (the switch traversal register): the flits that won switch allocation in the
  // cycle that just ended, by output; they appear on out_* OUT_STAGES - 1 cycles later. The
  // network's adapter takes its flits here, so that links, NIs and statistics see each flit at
  // the cycle the C++ router hands it on.
  output logic [NOUT-1:0]                sw_valid_o,
  output logic [NOUT-1:0][VW-1:0]        sw_vc_o,
  output logic [NOUT-1:0]                sw_head_o,
  output logic [NOUT-1:0]                sw_tail_o,
  output logic [NOUT-1:0][FLIT_W-1:0]    sw_data_o,
  // Nothing buffered and nothing in the output or credit pipelines: a clock edge with no input
  // changes no state (the model lets such a router sleep).
  output logic                           idle_o
);

  localparam int unsigned FW = FLIT_W + 2;  // {tail, head, payload}
  localparam int unsigned NREQ = NIN * V;   // VC allocation requesters: input VC p * V + v
  localparam int unsigned RW = (NREQ > 1) ? $clog2(NREQ) : 1;

  typedef enum logic [1:0] {VcIdle = 2'd0, VcRouted = 2'd1, VcActive = 2'd2} vc_state_e;

  // ---------------------------------------------------------------------------------------
  // Input units: per input VC a buffer and its state (idle / routed / active), output port
  // and output VC.
  logic [NIN-1:0][V-1:0]         buf_push, buf_pop, buf_empty;
  logic [NIN-1:0][V-1:0][FW-1:0] buf_head;  // the entry at the front
  vc_state_e                     vc_state_q [NIN][V];
  logic [OW-1:0]                 vc_port_q  [NIN][V];
  logic [VW-1:0]                 vc_ovc_q   [NIN][V];
  logic [V-1:0]                  vc_mask_q  [NIN][V];  // the output VCs it may take (torus)
  logic [NIN-1:0][V-1:0][PCW-1:0] vc_cls_q;  // the class of its packet (from the header at RC)

  for (genvar p = 0; p < NIN; p++) begin : g_in
    for (genvar v = 0; v < V; v++) begin : g_vc
      assign buf_push[p][v] = in_valid_i[p] && in_vc_i[p] == VW'(v);
      sy_vc_fifo #(.DEPTH(DEPTH), .W(FW)) u_buf (
        .clk_i,
        .rst_ni,
        .push_i  (buf_push[p][v]),
        .wdata_i ({in_tail_i[p], in_head_i[p], in_data_i[p]}),
        .pop_i   (buf_pop[p][v]),
        .rdata_o (buf_head[p][v]),
        .empty_o (buf_empty[p][v])
      );
    end
  end

  // ---------------------------------------------------------------------------------------
  // Output units: per output VC its owner flag, "tail sent, waiting for the last credits", and
  // credits. This cycle's credit counts at once (the *_eff values every allocation reads).
  logic [CRW-1:0] cred_q   [NOUT][V];
  logic           owned_q  [NOUT][V];
  logic           tsent_q  [NOUT][V];
  logic [CRW-1:0] cred_eff [NOUT][V];
  logic           owned_eff[NOUT][V];
  logic           tsent_eff[NOUT][V];

  always_comb begin
    for (int o = 0; o < NOUT; o++) begin
      for (int v = 0; v < V; v++) begin
        cred_eff[o][v] = cred_q[o][v] +
                         CRW'(cr_in_valid_i[o] && cr_in_vc_i[o] == VW'(v));
        // The owner's tail has gone and this credit was its last: the VC is free again.
        owned_eff[o][v] = owned_q[o][v] &&
                          !(tsent_q[o][v] && cred_eff[o][v] == CRW'(DEPTH));
        tsent_eff[o][v] = tsent_q[o][v] && owned_eff[o][v];
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // RC: an idle VC with a header at its front. On a torus its port and VC class come from
  // sy_route_dor_torus; on a mesh every VC of the port may be taken.
  logic [NIN-1:0][V-1:0]         rc_do;
  logic [NIN-1:0][V-1:0][OW-1:0] rc_port, rc_port_mesh, rc_port_torus;
  logic [NIN-1:0][V-1:0][V-1:0]  rc_mask, rc_mask_torus;
  for (genvar p = 0; p < NIN; p++) begin : g_rc_p
    for (genvar v = 0; v < V; v++) begin : g_rc_v
      assign rc_do[p][v] = vc_state_q[p][v] == VcIdle && !buf_empty[p][v];
      sy_route_dor_mesh #(.CW(CW), .OW(OW)) u_route (
        .x_i,
        .y_i,
        .dst_x_i (buf_head[p][v][CW-1:0]),
        .dst_y_i (buf_head[p][v][2*CW-1:CW]),
        .port_o  (rc_port_mesh[p][v])
      );
      sy_route_dor_torus #(.CW(CW), .OW(OW), .V(V), .NP(NP), .IN_PORT(p), .IN_VC(v)) u_route_t (
        .en_i      (torus_i),
        .x_i,
        .y_i,
        .x_last_i,
        .y_last_i,
        .tie_break_i,
        .dst_x_i   (buf_head[p][v][CW-1:0]),
        .dst_y_i   (buf_head[p][v][2*CW-1:CW]),
        .port_o    (rc_port_torus[p][v]),
        .vc_mask_o (rc_mask_torus[p][v])
      );
      assign rc_port[p][v] = torus_i ? rc_port_torus[p][v] : rc_port_mesh[p][v];
      assign rc_mask[p][v] = torus_i ? rc_mask_torus[p][v] : '1;
    end
  end

  // ---------------------------------------------------------------------------------------
  // VA: each routed VC requests the lowest free VC of its output that its class may take (every
  // VC on a mesh; on a torus its dateline half, vc_mask_q); one arbiter per output VC, which sees
  // only its requesters of the highest priority class among them (the model's VC allocator: the
  // best class, then round robin from one pointer, whatever the class).
  // (Written for Verilator's speed: word-wide masks, the lowest VC by two's complement.)
  logic [NOUT-1:0][V-1:0][NREQ-1:0] va_req;
  logic [NOUT-1:0][V-1:0][NREQ-1:0] va_req_any;  // before the classes
  logic [NOUT-1:0][V-1:0][NREQ-1:0] va_gnt;
  logic [NOUT-1:0][V-1:0]           va_gnt_valid;
  logic [NIN-1:0][V-1:0]            va_win;      // input VC p, v got an output VC
  logic [NIN-1:0][V-1:0][VW-1:0]    va_win_ovc;  // which
  logic [NOUT-1:0][V-1:0]           va_free;     // output VC free (this cycle's credit counted)

  always_comb begin
    logic [V-1:0] va_cand;  // the free output VCs this input VC may take
    logic [V-1:0] va_one;   // the lowest of them, one-hot
    for (int o = 0; o < NOUT; o++) begin
      for (int v = 0; v < V; v++) va_free[o][v] = !owned_eff[o][v];
    end
    va_req_any = '0;
    for (int p = 0; p < NIN; p++) begin
      for (int v = 0; v < V; v++) begin
        va_cand = va_free[vc_port_q[p][v]] & vc_mask_q[p][v];
        va_one = va_cand & (~va_cand + V'(1));
        if (vc_state_q[p][v] == VcRouted) begin
          for (int ov = 0; ov < V; ov++) va_req_any[vc_port_q[p][v]][ov][p * V + v] = va_one[ov];
        end
      end
    end
  end

  if (PC > 1) begin : g_va_cls
    logic [NREQ-1:0][PCW-1:0] req_cls;  // requester p * V + v's class
    logic [PC-1:0][NREQ-1:0]  cls_mask; // the requesters of each class
    assign req_cls = vc_cls_q;
    always_comb begin
      cls_mask = '0;
      for (int r = 0; r < NREQ; r++) cls_mask[req_cls[r]][r] = 1'b1;
      for (int o = 0; o < NOUT; o++) begin
        for (int ov = 0; ov < V; ov++) begin
          va_req[o][ov] = '0;
          for (int c = PC - 1; c >= 0; c--) begin
            if ((va_req_any[o][ov] & cls_mask[c]) != '0)
              va_req[o][ov] = va_req_any[o][ov] & cls_mask[c];
          end
        end
      end
    end
  end else begin : g_va_one_cls
    assign va_req = va_req_any;
  end

  for (genvar o = 0; o < NOUT; o++) begin : g_va_o
    for (genvar ov = 0; ov < V; ov++) begin : g_va_v
      logic [RW-1:0] unused_idx;
      prio_rr_arbiter #(.N(NREQ), .P(1)) u_arb (
        .clk_i,
        .rst_ni,
        .req_i       (va_req[o][ov]),
        .cls_i       ('0),
        .hold_i      (1'b0),
        .en_i        (va_gnt_valid[o][ov]),
        .gnt_o       (va_gnt[o][ov]),
        .gnt_valid_o (va_gnt_valid[o][ov]),
        .gnt_idx_o   (unused_idx)
      );
    end
  end

  // The winners: at most one grant per requester (it asked for one output VC).
  always_comb begin
    va_win = '0;
    va_win_ovc = '0;
    for (int ov = 0; ov < V; ov++) begin
      logic [NREQ-1:0] won;
      won = '0;
      for (int o = 0; o < NOUT; o++) won |= va_gnt[o][ov];
      va_win |= won;
      for (int r = 0; r < NREQ; r++) begin
        if (won[r]) va_win_ovc[r / V][r % V] = VW'(ov);
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // SA, stage 1: each input picks one of its VCs that may send (active, a flit in, a credit).
  logic [NIN-1:0][V-1:0]  sa_elig;
  logic [NIN-1:0][V-1:0]  in_gnt;
  logic [NIN-1:0]         in_gnt_valid;
  logic [NIN-1:0][VW-1:0] in_gnt_vc;
  logic [NIN-1:0]         in_used;     // its choice won its output (stage 2)
  logic [NIN-1:0][OW-1:0] in_bid_port;

  always_comb begin
    for (int p = 0; p < NIN; p++) begin
      for (int v = 0; v < V; v++) begin
        sa_elig[p][v] = vc_state_q[p][v] == VcActive && !buf_empty[p][v] &&
                        cred_eff[vc_port_q[p][v]][vc_ovc_q[p][v]] != '0;
      end
    end
  end

  logic [NIN-1:0][PCW-1:0] in_bid_cls;  // the class of each input's choice

  for (genvar p = 0; p < NIN; p++) begin : g_sa_in
    prio_rr_arbiter #(.N(V), .P(PC)) u_arb (
      .clk_i,
      .rst_ni,
      .req_i       (sa_elig[p]),
      .cls_i       (vc_cls_q[p]),
      .hold_i      (1'b0),
      .en_i        (in_used[p]),
      .gnt_o       (in_gnt[p]),
      .gnt_valid_o (in_gnt_valid[p]),
      .gnt_idx_o   (in_gnt_vc[p])
    );
    assign in_bid_port[p] = vc_port_q[p][in_gnt_vc[p]];
    assign in_bid_cls[p]  = vc_cls_q[p][in_gnt_vc[p]];
  end

  // SA, stage 2: each output picks one of the inputs bidding for it.
  logic [NOUT-1:0][NIN-1:0] out_req;
  logic [NOUT-1:0][NIN-1:0] out_gnt;
  logic [NOUT-1:0]          out_gnt_valid;
  logic [NOUT-1:0][IW-1:0]  out_gnt_in;

  always_comb begin
    out_req = '0;
    for (int p = 0; p < NIN; p++) begin
      if (in_gnt_valid[p]) out_req[in_bid_port[p]][p] = 1'b1;
    end
  end

  for (genvar o = 0; o < NOUT; o++) begin : g_sa_out
    prio_rr_arbiter #(.N(NIN), .P(PC)) u_arb (
      .clk_i,
      .rst_ni,
      .req_i       (out_req[o]),
      .cls_i       (in_bid_cls),
      .hold_i      (1'b0),
      .en_i        (out_gnt_valid[o]),
      .gnt_o       (out_gnt[o]),
      .gnt_valid_o (out_gnt_valid[o]),
      .gnt_idx_o   (out_gnt_in[o])
    );
  end

  always_comb begin
    in_used = '0;
    for (int o = 0; o < NOUT; o++) in_used |= out_gnt[o];
  end

  // The granted flits: the crossbar's inputs for this cycle, by output.
  logic [NOUT-1:0][VW-1:0] xb_in_vc;   // the input VC
  logic [NOUT-1:0][VW-1:0] xb_ovc;     // the output VC it holds
  logic [NOUT-1:0][FW-1:0] xb_flit;
  always_comb begin
    for (int o = 0; o < NOUT; o++) begin
      xb_in_vc[o] = in_gnt_vc[out_gnt_in[o]];
      xb_ovc[o]   = vc_ovc_q[out_gnt_in[o]][xb_in_vc[o]];
      xb_flit[o]  = buf_head[out_gnt_in[o]][xb_in_vc[o]];
    end
  end

  always_comb begin
    for (int p = 0; p < NIN; p++) buf_pop[p] = in_used[p] ? in_gnt[p] : '0;
  end

  // ---------------------------------------------------------------------------------------
  // Input VC state.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int p = 0; p < NIN; p++) begin
        for (int v = 0; v < V; v++) begin
          vc_state_q[p][v] <= VcIdle;
          vc_port_q[p][v]  <= '0;
          vc_ovc_q[p][v]   <= '0;
          vc_mask_q[p][v]  <= '0;
        end
      end
    end else begin
      for (int p = 0; p < NIN; p++) begin
        for (int v = 0; v < V; v++) begin
          if (rc_do[p][v]) begin
            vc_state_q[p][v] <= VcRouted;
            vc_port_q[p][v]  <= rc_port[p][v];
            vc_mask_q[p][v]  <= rc_mask[p][v];
          end else if (va_win[p][v]) begin
            vc_state_q[p][v] <= VcActive;
            vc_ovc_q[p][v]   <= va_win_ovc[p][v];
          end else if (buf_pop[p][v] && buf_head[p][v][FW-1]) begin
            vc_state_q[p][v] <= VcIdle;  // the tail left
          end
        end
      end
    end
  end

  // The packet's class, from its header as it is routed (0 with one class).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vc_cls_q <= '0;
    end else begin
      for (int p = 0; p < NIN; p++) begin
        for (int v = 0; v < V; v++) begin
          if (rc_do[p][v]) vc_cls_q[p][v] <= (PC > 1) ? buf_head[p][v][2*CW +: PCW] : '0;
        end
      end
    end
  end

  // Output VC state: a VC grant takes it; a flit takes a credit; a tail frees it (at once, or
  // with wait_tail_credit_i once the last credit is back: owned_eff above).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int o = 0; o < NOUT; o++) begin
        for (int v = 0; v < V; v++) begin
          cred_q[o][v]  <= CRW'(DEPTH);
          owned_q[o][v] <= 1'b0;
          tsent_q[o][v] <= 1'b0;
        end
      end
    end else begin
      for (int o = 0; o < NOUT; o++) begin
        for (int v = 0; v < V; v++) begin
          logic sent, tail;
          sent = out_gnt_valid[o] && xb_ovc[o] == VW'(v);
          tail = sent && xb_flit[o][FW-1];
          cred_q[o][v] <= cred_eff[o][v] - CRW'(sent);
          if (va_gnt_valid[o][v]) begin
            owned_q[o][v] <= 1'b1;
            tsent_q[o][v] <= 1'b0;
          end else if (tail && !wait_tail_credit_i) begin
            owned_q[o][v] <= 1'b0;
            tsent_q[o][v] <= 1'b0;
          end else if (tail) begin
            owned_q[o][v] <= owned_eff[o][v];
            tsent_q[o][v] <= 1'b1;
          end else begin
            owned_q[o][v] <= owned_eff[o][v];
            tsent_q[o][v] <= tsent_eff[o][v];
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------
  // ST and LT: OUT_STAGES registers from the grant to the output port.
  typedef struct packed {
    logic              valid;
    logic [VW-1:0]     vc;
    logic [FW-1:0]     flit;
  } out_stage_t;
  out_stage_t [NOUT-1:0] ost_q [OUT_STAGES];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int s = 0; s < OUT_STAGES; s++) ost_q[s] <= '0;
    end else begin
      for (int o = 0; o < NOUT; o++) begin
        ost_q[0][o].valid <= out_gnt_valid[o];
        ost_q[0][o].vc    <= xb_ovc[o];
        ost_q[0][o].flit  <= xb_flit[o];
      end
      for (int s = 1; s < OUT_STAGES; s++) ost_q[s] <= ost_q[s-1];
    end
  end

  always_comb begin
    for (int o = 0; o < NOUT; o++) begin
      sw_valid_o[o]  = ost_q[0][o].valid;
      sw_vc_o[o]     = ost_q[0][o].vc;
      sw_tail_o[o]   = ost_q[0][o].flit[FW-1];
      sw_head_o[o]   = ost_q[0][o].flit[FW-2];
      sw_data_o[o]   = ost_q[0][o].flit[FLIT_W-1:0];
      out_valid_o[o] = ost_q[OUT_STAGES-1][o].valid;
      out_vc_o[o]    = ost_q[OUT_STAGES-1][o].vc;
      out_tail_o[o]  = ost_q[OUT_STAGES-1][o].flit[FW-1];
      out_head_o[o]  = ost_q[OUT_STAGES-1][o].flit[FW-2];
      out_data_o[o]  = ost_q[OUT_STAGES-1][o].flit[FLIT_W-1:0];
    end
  end

  // Credits back: a shift register per input; credit_delay_i picks the tap.
  typedef struct packed {
    logic          valid;
    logic [VW-1:0] vc;
  } credit_stage_t;
  credit_stage_t [NIN-1:0] cst_q [MAX_CREDIT_DELAY];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int s = 0; s < MAX_CREDIT_DELAY; s++) cst_q[s] <= '0;
    end else begin
      for (int p = 0; p < NIN; p++) begin
        cst_q[0][p].valid <= in_used[p];
        cst_q[0][p].vc    <= in_gnt_vc[p];
      end
      for (int s = 1; s < MAX_CREDIT_DELAY; s++) cst_q[s] <= cst_q[s-1];
    end
  end

  always_comb begin
    cr_out_valid_o = '0;
    cr_out_vc_o    = '0;
    for (int s = 0; s < MAX_CREDIT_DELAY; s++) begin
      if (credit_delay_i == CDW'(s + 1)) begin
        for (int p = 0; p < NIN; p++) begin
          cr_out_valid_o[p] = cst_q[s][p].valid;
          cr_out_vc_o[p]    = cst_q[s][p].vc;
        end
      end
    end
  end

  always_comb begin
    idle_o = &buf_empty;
    for (int s = 0; s < OUT_STAGES; s++) begin
      for (int o = 0; o < NOUT; o++) if (ost_q[s][o].valid) idle_o = 1'b0;
    end
    for (int s = 0; s < MAX_CREDIT_DELAY; s++) begin
      for (int p = 0; p < NIN; p++) if (cst_q[s][p].valid) idle_o = 1'b0;
    end
  end

`ifndef SYNTHESIS
  // Credits stay within 0..DEPTH; a flit is sent only with a credit; a VC grant only on a free
  // output VC; an idle VC's front flit is a header; the configuration is in range.
  logic cred_ok, grant_ok, front_ok;
  always_comb begin
    cred_ok = 1'b1;
    grant_ok = 1'b1;
    front_ok = 1'b1;
    for (int o = 0; o < NOUT; o++) begin
      for (int v = 0; v < V; v++) begin
        if (32'(cred_eff[o][v]) > DEPTH) cred_ok = 1'b0;
        if (va_gnt_valid[o][v] && owned_eff[o][v]) grant_ok = 1'b0;
      end
      if (out_gnt_valid[o] && cred_eff[o][xb_ovc[o]] == '0) grant_ok = 1'b0;
    end
    for (int p = 0; p < NIN; p++) begin
      for (int v = 0; v < V; v++) begin
        if (rc_do[p][v] && !buf_head[p][v][FW-2]) front_ok = 1'b0;
        // (a VC grant of the requester's class only: its dateline class on a torus)
        if (va_win[p][v] && !vc_mask_q[p][v][va_win_ovc[p][v]]) grant_ok = 1'b0;
      end
    end
  end
  a_credits_in_range : assert property (@(posedge clk_i) cred_ok)
    else $error("sy_vc_router: a credit count left 0..DEPTH");
  a_grants_legal : assert property (@(posedge clk_i) grant_ok)
    else $error("sy_vc_router: a grant on an owned VC, outside the class or without a credit");
  a_idle_vc_header : assert property (@(posedge clk_i) front_ok)
    else $error("sy_vc_router: an idle VC's front flit is not a header");
  a_credit_delay : assert property (@(posedge clk_i)
                                    credit_delay_i >= 1 && 32'(credit_delay_i) <= MAX_CREDIT_DELAY)
    else $error("sy_vc_router: credit_delay_i %0d out of 1..%0d", credit_delay_i,
                MAX_CREDIT_DELAY);
  // Each input sends at most one flit a cycle (each output's grant is one-hot: the arbiters).
  logic pop_ok;
  always_comb begin
    pop_ok = 1'b1;
    for (int p = 0; p < NIN; p++) if (!$onehot0(buf_pop[p])) pop_ok = 1'b0;
  end
  a_one_flit_per_input : assert property (@(posedge clk_i) pop_ok)
    else $error("sy_vc_router: an input sent two flits in one cycle");
  // A header's class is one this router was built for (only in question when PC is not a
  // power of two).
  if (PC > 1 && (1 << PCW) != PC) begin : g_cls_check
    logic cls_ok;
    always_comb begin
      cls_ok = 1'b1;
      for (int p = 0; p < NIN; p++) begin
        for (int v = 0; v < V; v++) begin
          if (rc_do[p][v] && 32'(buf_head[p][v][2*CW +: PCW]) >= PC) cls_ok = 1'b0;
        end
      end
    end
    a_class_in_range : assert property (@(posedge clk_i) cls_ok)
      else $error("sy_vc_router: a header's class is not below PC = %0d", PC);
  end
`endif

endmodule
