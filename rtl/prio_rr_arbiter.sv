// prio_rr_arbiter: N requesters, P strict priority classes (class 0 highest), round-robin within
// the highest class present, optional grant hold. RTL twin of sy::Arbiter (models/arbiter.hpp)
// with the round-robin policy; tb/cosim checks the two against each other cycle by cycle.
//
// Combinational grant (same cycle as the request):
//   * no request                                   -> no grant;
//   * hold_i, a valid last grant L and req_i[L]    -> grant L (class ignored: a held path stays);
//   * otherwise best = min cls_i[i] over requesters; grant the first requester of class best
//     at or after ptr_q[best], wrapping modulo N.
// Sequential update (posedge clk_i, only when en_i = "the grant was used this cycle"):
//   last <= grant (or invalid when there is none); if there is a grant g: ptr_q[cls_i[g]] <= g+1 mod N.
// Reset: asynchronous, active low (rst_ni); all pointers 0, last grant invalid.
// Input contract: cls_i[i] < P for every requesting i (asserted); classes of idle inputs are
// don't-care.

module prio_rr_arbiter #(
  parameter int unsigned N = 5,  // requesters, 1..64 like sy::Arbiter (the RTL itself has no cap)
  parameter int unsigned P = 3,  // priority classes, >= 1
  localparam int unsigned CW = (P > 1) ? $clog2(P) : 1,  // class width
  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1   // requester index width
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [N-1:0]          req_i,
  input  logic [N-1:0][CW-1:0]  cls_i,        // cls_i[i]: class of requester i
  input  logic                  hold_i,       // keep the last grant while it still requests
  input  logic                  en_i,         // the grant was used: advance pointer and last
  output logic [N-1:0]          gnt_o,        // one-hot or zero
  output logic                  gnt_valid_o,  // |gnt_o
  output logic [IW-1:0]         gnt_idx_o     // index of the grant, 0 when there is none
);

  localparam logic [IW-1:0] LastIdx = IW'(N - 1);

  // State: one round-robin pointer per class, and the last used grant.
  logic [IW-1:0] ptr_q [P];
  logic [IW-1:0] last_q;
  logic          last_valid_q;

  // Combinational arbitration.
  logic [N-1:0]  elig;        // requesters of the best class
  logic [IW-1:0] start;       // ptr_q[best_cls]
  logic          held;        // the last grant keeps the resource this cycle
  logic [IW-1:0] gnt_idx;
  logic          gnt_valid;
  logic [CW-1:0] gnt_cls;

  // (Written for Verilator's speed: word-wide masks instead of loops over the requesters where
  // the classes allow it; the grant is the same.)
  logic [N-1:0] elig_hi;     // eligible at or after start
  logic [N-1:0] pick;        // where the round robin looks: elig_hi, else all of elig
  logic [N-1:0] rr_oh;       // its lowest requester, one-hot
  logic [N-1:0] gnt;

  if (P == 1) begin : g_one_cls
    assign elig     = req_i;
    assign start    = ptr_q[0];
  end else begin : g_cls
    logic [CW-1:0] best_cls;
    always_comb begin
      // Smallest class among the requesters (all ones when nobody requests: unused then).
      best_cls = '1;
      for (int i = 0; i < N; i++) begin
        if (req_i[i] && cls_i[i] < best_cls) best_cls = cls_i[i];
      end
      for (int i = 0; i < N; i++) begin
        elig[i] = req_i[i] && (cls_i[i] == best_cls);
      end
      // An out-of-contract class (>= P, only possible when P is not a power of two) reads
      // pointer 0 instead of indexing past the array.
      start = '0;
      for (int c = 0; c < P; c++) begin
        if (best_cls == CW'(c)) start = ptr_q[c];
      end
    end
  end

  always_comb begin
    // Round robin from start: the lowest eligible index >= start, else the lowest eligible.
    elig_hi = elig & ({N{1'b1}} << start);
    pick    = (elig_hi != '0) ? elig_hi : elig;
    rr_oh   = pick & (~pick + N'(1));
    held    = hold_i && last_valid_q && req_i[last_q];
    gnt_valid = |req_i;
    gnt = '0;
    if (held) gnt[last_q] = 1'b1;
    else gnt = rr_oh;
    gnt_idx = IW'($clog2(gnt));  // (gnt is one-hot or zero: its index, or 0)
    gnt_cls = cls_i[gnt_idx];
  end

  assign gnt_o = gnt;
  assign gnt_valid_o = gnt_valid;
  assign gnt_idx_o   = gnt_idx;

  // Sequential update, the twin of sy::Arbiter::update(winner, cls[winner]).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < P; c++) ptr_q[c] <= '0;
      last_q       <= '0;
      last_valid_q <= 1'b0;
    end else if (en_i) begin
      last_valid_q <= gnt_valid;
      if (gnt_valid) begin
        last_q <= gnt_idx;
        for (int c = 0; c < P; c++) begin
          if (gnt_cls == CW'(c)) ptr_q[c] <= (gnt_idx == LastIdx) ? '0 : gnt_idx + 1'b1;
        end
      end
    end
  end

`ifndef SYNTHESIS
  // Checked by simulators and by Verilator with --assert (tb/cosim builds with it), sampled at
  // the clock edge, i.e. on the settled values of the cycle that ends there. They hold during
  // reset too (the reset state has no valid last grant), hence no `disable iff (!rst_ni)`,
  // which would also make Verilator's lint flag rst_ni as both sync and async (SYNCASYNCNET).
  logic [N-1:0] held_onehot;
  always_comb begin
    held_onehot = '0;
    held_onehot[last_q] = 1'b1;
  end

  logic [N-1:0] bad_cls;  // requesters whose class is out of contract (>= P)
  always_comb begin
    for (int i = 0; i < N; i++) bad_cls[i] = req_i[i] && (32'(cls_i[i]) >= P);
  end

  // The grant is one-hot or zero.
  a_gnt_onehot0 : assert property (@(posedge clk_i) $onehot0(gnt_o))
    else $error("prio_rr_arbiter: grant not one-hot: %b", gnt_o);
  // Only requesters are granted, and a request is always served.
  a_gnt_in_req : assert property (@(posedge clk_i) (gnt_o & ~req_i) == '0)
    else $error("prio_rr_arbiter: grant %b outside request %b", gnt_o, req_i);
  a_work_conserving : assert property (@(posedge clk_i)
                                       (|req_i) == (|gnt_o))
    else $error("prio_rr_arbiter: requests %b but grant %b", req_i, gnt_o);
  // No grant change while held: if hold_i and the last grant still requests, it is granted.
  a_hold_keeps : assert property (@(posedge clk_i)
                                  (hold_i && last_valid_q && req_i[last_q]) |-> gnt_o == held_onehot)
    else $error("prio_rr_arbiter: held grant %0d lost (grant %b)", last_q, gnt_o);
  // Input contract: requesting classes are < P.
  a_cls_in_range : assert property (@(posedge clk_i) bad_cls == '0)
    else $error("prio_rr_arbiter: class >= P=%0d on requesters %b", P, bad_cls);
`endif

endmodule
