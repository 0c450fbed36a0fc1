// sy_route_dor_torus: route computation for a 2-D torus, dimension order (x first, then y) with
// dateline VC classes, the twin of sy::RoutingUnit on a torus whose two rings have 3 or more
// routers (routing.dateline: wraparound, the default). Ports are numbered as sy::Topology numbers
// them: 0 x+, 1 x-, 2 y+, 3 y-; port 4 is the ejection output.
//  * Direction: the shorter way round the ring. A tie (an even ring, the destination exactly
//    k/2 away) follows tie_break_i: 0 positive, 1 negative, 2 (or 3) balanced: + from an even
//    coordinate, - from an odd one (routing.tie_break).
//  * VC class (vc_mask_o, the output VCs the header may take): the upper half [V/2, V) if the
//    header arrived in the upper half on the same dimension (it has crossed its ring's dateline)
//    or this hop is the ring's wraparound link (+ from k-1, - from 0); the lower half [0, V/2)
//    otherwise, e.g. from the injection port or when it turns into y. Ejection, or V < 2: every
//    VC.
// One instance per input VC: IN_PORT and IN_VC are that VC's input port and number. With en_i
// low (a mesh: sy_route_dor_mesh routes) it computes nothing: port 4, every VC (one branch per
// evaluation in the Verilated model).
// Combinational.
module sy_route_dor_torus #(
  parameter int unsigned CW = 4,       // coordinate width
  parameter int unsigned OW = 3,       // output index width (>= 3)
  parameter int unsigned V = 2,        // VCs per port
  parameter int unsigned NP = 4,       // network ports; an input IN_PORT >= NP injects
  parameter int unsigned IN_PORT = 0,  // the input port of the VC this unit routes for
  parameter int unsigned IN_VC = 0     // its VC number
) (
  input  logic          en_i,         // a torus (else the outputs are don't-care)
  input  logic [CW-1:0] x_i,          // this router
  input  logic [CW-1:0] y_i,
  input  logic [CW-1:0] x_last_i,     // the rings' last coordinates (k - 1)
  input  logic [CW-1:0] y_last_i,
  input  logic [1:0]    tie_break_i,  // 0 positive, 1 negative, 2 / 3 balanced
  input  logic [CW-1:0] dst_x_i,      // the header's destination
  input  logic [CW-1:0] dst_y_i,
  output logic [OW-1:0] port_o,
  output logic [V-1:0]  vc_mask_o
);
  // The header arrived on a network port of dimension IN_DIM, in the upper class.
  localparam bit          IN_NET   = IN_PORT < NP;
  localparam int unsigned IN_DIM   = IN_PORT / 2;
  localparam bit          IN_UPPER = V >= 2 && IN_VC >= V / 2;

  // Whether to go the positive way round a ring of last coordinate `last` from c to t (c != t).
  function automatic logic positive(input logic [CW-1:0] c, input logic [CW-1:0] t,
                                    input logic [CW-1:0] last, input logic [1:0] tie);
    logic [CW:0] k, fwd;  // (k <= 2^CW, fwd < k)
    k = (CW + 1)'(last) + (CW + 1)'(1);
    fwd = (t >= c) ? (CW + 1)'(t) - (CW + 1)'(c) : (CW + 1)'(t) + k - (CW + 1)'(c);
    if ({fwd, 1'b0} < {1'b0, k}) positive = 1'b1;        // fwd < back = k - fwd
    else if ({fwd, 1'b0} > {1'b0, k}) positive = 1'b0;
    else if (tie == 2'd0) positive = 1'b1;
    else if (tie == 2'd1) positive = 1'b0;
    else positive = !c[0];
  endfunction

  logic wraps, upper, pos;
  always_comb begin
    wraps = 1'b0;
    pos = 1'b0;
    if (!en_i) begin
      port_o = OW'(4);
    end else if (dst_x_i != x_i) begin
      pos = positive(x_i, dst_x_i, x_last_i, tie_break_i);
      port_o = pos ? OW'(0) : OW'(1);
      wraps = pos ? x_i == x_last_i : x_i == '0;
    end else if (dst_y_i != y_i) begin
      pos = positive(y_i, dst_y_i, y_last_i, tie_break_i);
      port_o = pos ? OW'(2) : OW'(3);
      wraps = pos ? y_i == y_last_i : y_i == '0;
    end else begin
      port_o = OW'(4);
    end
    upper = wraps || (IN_NET && IN_UPPER && 32'(port_o) / 2 == IN_DIM);
  end
  for (genvar v = 0; v < V; v++) begin : g_mask
    if (V < 2) begin : g_all
      logic unused_upper;  // (one VC: no classes)
      assign unused_upper = upper;
      assign vc_mask_o[v] = 1'b1;
    end else if (v >= V / 2) begin : g_upper
      assign vc_mask_o[v] = port_o == OW'(4) || upper;
    end else begin : g_lower
      assign vc_mask_o[v] = port_o == OW'(4) || !upper;
    end
  end
endmodule
