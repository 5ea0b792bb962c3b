/** A box score (SPEC §2.6): per player and as team totals. All integers. */
export interface BoxScore {
  points: number;
  fg_2pt_att: number;
  fg_2pt_make: number;
  fg_3pt_att: number;
  fg_3pt_make: number;
  ft_att: number;
  ft_make: number;
  assist: number;
  rebound: number;
}

export const emptyBoxScore = (): BoxScore => ({
  points: 0,
  fg_2pt_att: 0,
  fg_2pt_make: 0,
  fg_3pt_att: 0,
  fg_3pt_make: 0,
  ft_att: 0,
  ft_make: 0,
  assist: 0,
  rebound: 0,
});
