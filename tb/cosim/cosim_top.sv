// cosim_top: every prio_rr_arbiter parameterization the co-simulation checks, side by side in one
// Verilated model (one Verilator run and one C++ compile instead of one per configuration).
// Each configuration NnPp has its own reset and inputs; the clock is shared.
// Keep in sync with tb/cosim/configs.def (the harness fails to compile if a port is missing).

`define SY_CW(P) (((P) > 1) ? $clog2(P) : 1)
`define SY_IW(N) (((N) > 1) ? $clog2(N) : 1)

`define SY_PORTS(NM, NV, PV) \
  , input  logic                        NM``_rst_ni \
  , input  logic [NV-1:0]               NM``_req_i \
  , input  logic [NV-1:0][`SY_CW(PV)-1:0] NM``_cls_i \
  , input  logic                        NM``_hold_i \
  , input  logic                        NM``_en_i \
  , output logic [NV-1:0]               NM``_gnt_o \
  , output logic                        NM``_gnt_valid_o \
  , output logic [`SY_IW(NV)-1:0]       NM``_gnt_idx_o

`define SY_INST(NM, NV, PV) \
  prio_rr_arbiter #(.N(NV), .P(PV)) u_``NM ( \
    .clk_i, \
    .rst_ni      (NM``_rst_ni), \
    .req_i       (NM``_req_i), \
    .cls_i       (NM``_cls_i), \
    .hold_i      (NM``_hold_i), \
    .en_i        (NM``_en_i), \
    .gnt_o       (NM``_gnt_o), \
    .gnt_valid_o (NM``_gnt_valid_o), \
    .gnt_idx_o   (NM``_gnt_idx_o) \
  );

module cosim_top (
  input logic clk_i
  `SY_PORTS(n1p1, 1, 1)
  `SY_PORTS(n2p2, 2, 2)
  `SY_PORTS(n3p8, 3, 8)
  `SY_PORTS(n5p1, 5, 1)
  `SY_PORTS(n5p2, 5, 2)
  `SY_PORTS(n5p3, 5, 3)
  `SY_PORTS(n7p1, 7, 1)
  `SY_PORTS(n7p2, 7, 2)
  `SY_PORTS(n7p3, 7, 3)
  `SY_PORTS(n16p4, 16, 4)
  `SY_PORTS(n64p2, 64, 2)
);
  `SY_INST(n1p1, 1, 1)
  `SY_INST(n2p2, 2, 2)
  `SY_INST(n3p8, 3, 8)
  `SY_INST(n5p1, 5, 1)
  `SY_INST(n5p2, 5, 2)
  `SY_INST(n5p3, 5, 3)
  `SY_INST(n7p1, 7, 1)
  `SY_INST(n7p2, 7, 2)
  `SY_INST(n7p3, 7, 3)
  `SY_INST(n16p4, 16, 4)
  `SY_INST(n64p2, 64, 2)
endmodule

`undef SY_INST
`undef SY_PORTS
`undef SY_IW
`undef SY_CW
