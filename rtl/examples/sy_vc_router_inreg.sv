// sy_vc_router_inreg: an example of a designer's own router for router.model: rtl, built with
// switchyard_add_rtl_router() (cmake/SwitchyardRtl.cmake) and registered as
// router.rtl: sy_vc_router_inreg. It is sy_vc_router with one more pipeline stage: an input
// register on every input port (a flit is written into its VC a cycle after it arrives, as a
// router whose buffer write takes a cycle of its own). Everything else, the port contract
// included (rtl/README.md), is sy_vc_router's, so it differs from the C++ staged model in one way
// that can be predicted: at zero load a packet takes exactly one cycle more per router it
// crosses, and the credit loop of every VC is a cycle longer (the upstream router's credit comes
// back a cycle later), which lowers the throughput a VC of vc_depth flits can sustain.
module sy_vc_router_inreg #(
  parameter int unsigned NP = 4,
  parameter int unsigned NI = 1,
  parameter int unsigned NE = 1,
  parameter int unsigned V = 2,
  parameter int unsigned DEPTH = 4,
  parameter int unsigned FLIT_W = 64,
  parameter int unsigned CW = 4,
  parameter int unsigned OUT_STAGES = 2,
  parameter int unsigned MAX_CREDIT_DELAY = 4,
  localparam int unsigned NIN = NP + NI,
  localparam int unsigned NOUT = NP + NE,
  localparam int unsigned VW = (V > 1) ? $clog2(V) : 1,
  localparam int unsigned CDW = $clog2(MAX_CREDIT_DELAY + 1)
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic [CW-1:0]                  x_i,
  input  logic [CW-1:0]                  y_i,
  input  logic                           wait_tail_credit_i,
  input  logic [CDW-1:0]                 credit_delay_i,
  input  logic [NIN-1:0]                 in_valid_i,
  input  logic [NIN-1:0][VW-1:0]         in_vc_i,
  input  logic [NIN-1:0]                 in_head_i,
  input  logic [NIN-1:0]                 in_tail_i,
  input  logic [NIN-1:0][FLIT_W-1:0]     in_data_i,
  input  logic [NOUT-1:0]                cr_in_valid_i,
  input  logic [NOUT-1:0][VW-1:0]        cr_in_vc_i,
  output logic [NOUT-1:0]                out_valid_o,
  output logic [NOUT-1:0][VW-1:0]        out_vc_o,
  output logic [NOUT-1:0]                out_head_o,
  output logic [NOUT-1:0]                out_tail_o,
  output logic [NOUT-1:0][FLIT_W-1:0]    out_data_o,
  output logic [NIN-1:0]                 cr_out_valid_o,
  output logic [NIN-1:0][VW-1:0]         cr_out_vc_o,
  output logic [NOUT-1:0]                sw_valid_o,
  output logic [NOUT-1:0][VW-1:0]        sw_vc_o,
  output logic [NOUT-1:0]                sw_head_o,
  output logic [NOUT-1:0]                sw_tail_o,
  output logic [NOUT-1:0][FLIT_W-1:0]    sw_data_o,
  output logic                           idle_o
);

  // The extra stage: every input's flit, held for one cycle. (The upstream router spent a credit
  // on it, so the VC it goes to has room when it leaves the register.)
  logic [NIN-1:0]              valid_q;
  logic [NIN-1:0][VW-1:0]      vc_q;
  logic [NIN-1:0]              head_q, tail_q;
  logic [NIN-1:0][FLIT_W-1:0]  data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      vc_q    <= '0;
      head_q  <= '0;
      tail_q  <= '0;
      data_q  <= '0;
    end else begin
      valid_q <= in_valid_i;
      vc_q    <= in_vc_i;
      head_q  <= in_head_i;
      tail_q  <= in_tail_i;
      data_q  <= in_data_i;
    end
  end

  logic core_idle;

  sy_vc_router #(
    .NP(NP), .NI(NI), .NE(NE), .V(V), .DEPTH(DEPTH), .FLIT_W(FLIT_W), .CW(CW),
    .OUT_STAGES(OUT_STAGES), .MAX_CREDIT_DELAY(MAX_CREDIT_DELAY)
  ) u_core (
    .clk_i,
    .rst_ni,
    .x_i,
    .y_i,
    .wait_tail_credit_i,
    .credit_delay_i,
    // (The example keeps the contract's mesh ports only: a mesh. Its adapter sees no torus_i
    // and the config refuses a torus for it.)
    .torus_i        (1'b0),
    .x_last_i       ('0),
    .y_last_i       ('0),
    .tie_break_i    (2'd0),
    .in_valid_i     (valid_q),
    .in_vc_i        (vc_q),
    .in_head_i      (head_q),
    .in_tail_i      (tail_q),
    .in_data_i      (data_q),
    .cr_in_valid_i,
    .cr_in_vc_i,
    .out_valid_o,
    .out_vc_o,
    .out_head_o,
    .out_tail_o,
    .out_data_o,
    .cr_out_valid_o,
    .cr_out_vc_o,
    .sw_valid_o,
    .sw_vc_o,
    .sw_head_o,
    .sw_tail_o,
    .sw_data_o,
    .idle_o         (core_idle)
  );

  // Idle only with the input register empty too: a flit in it still changes state at the edge.
  assign idle_o = core_idle && !(|valid_q);

endmodule
