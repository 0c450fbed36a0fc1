// sy_vc_fifo: one virtual channel's flit buffer at a router input, DEPTH entries of W bits.
// Push and pop in the same cycle are allowed (also when full: the popped slot is reused).
// rdata_o is the head entry (valid when !empty_o), read combinationally.
// The twin of the FIFO in sy::VirtualChannel (models/router/virtual_channel.hpp), without the
// flits still on the link that the model already keeps there.
module sy_vc_fifo #(
  parameter int unsigned DEPTH = 4,  // >= 1
  parameter int unsigned W = 66,
  localparam int unsigned AW = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  localparam int unsigned CNTW = $clog2(DEPTH + 1)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         push_i,
  input  logic [W-1:0] wdata_i,
  input  logic         pop_i,
  output logic [W-1:0] rdata_o,
  output logic         empty_o
);

  localparam logic [AW-1:0] LastAddr = AW'(DEPTH - 1);

  logic [W-1:0]    mem_q [DEPTH];
  logic [AW-1:0]   rd_q, wr_q;
  logic [CNTW-1:0] cnt_q;

  assign empty_o = cnt_q == '0;
  assign rdata_o = mem_q[rd_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q  <= '0;
      wr_q  <= '0;
      cnt_q <= '0;
    end else begin
      if (push_i) wr_q <= (wr_q == LastAddr) ? '0 : wr_q + 1'b1;
      if (pop_i) rd_q <= (rd_q == LastAddr) ? '0 : rd_q + 1'b1;
      if (push_i && !pop_i) cnt_q <= cnt_q + 1'b1;
      else if (pop_i && !push_i) cnt_q <= cnt_q - 1'b1;
    end
  end

  // (No reset on the storage: it is read only where cnt_q says an entry is there.)
  always_ff @(posedge clk_i) begin
    if (push_i) mem_q[wr_q] <= wdata_i;
  end

`ifndef SYNTHESIS
  // No flit dropped: a push into a full buffer only with a pop in the same cycle (credit flow
  // control upstream guarantees it); no pop from an empty buffer.
  a_no_overflow : assert property (@(posedge clk_i) !(push_i && cnt_q == CNTW'(DEPTH) && !pop_i))
    else $error("sy_vc_fifo: push into a full buffer");
  a_no_underflow : assert property (@(posedge clk_i) !(pop_i && empty_o))
    else $error("sy_vc_fifo: pop from an empty buffer");
`endif

endmodule
